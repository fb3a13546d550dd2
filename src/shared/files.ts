/** Reading the small text files the arena is given (scenarios, strategies, workflows, configs). */
import { readFile, stat } from 'node:fs/promises';
import { NotFoundError, UsageError } from './errors.js';

/** reads a text file after checking it exists, is a file and is under `maxBytes` */
export async function readSmallFile(path: string, maxBytes: number, what: string): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${what} file '${path}' is not a file`, { code: 'invalid_file' });
    size = info.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NotFoundError(`${what} file '${path}' does not exist`, { code: 'file_not_found' });
    throw err;
  }
  if (size > maxBytes)
    throw new UsageError(`${what} file '${path}' is ${size} bytes; the limit is ${maxBytes}`, {
      code: 'file_too_large',
    });
  return readFile(path, 'utf8');
}
