/**
 * The key gate, then the console. The key lives in this tab's session
 * storage only; a 401 anywhere sends the user back to the gate with the
 * reason, instead of a page of silently failing panels.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, createApi, describeFailure } from './api.js';
import { KeyGate } from './components/KeyGate.js';
import { Console } from './components/Console.js';

const KEY_STORAGE = 'arena.apiKey';

type Phase = { kind: 'checking' } | { kind: 'gate'; message?: string } | { kind: 'console'; key: string };

/** 'ok', or why the key does not open the API */
async function tryKey(key: string): Promise<'ok' | 'refused' | string> {
  try {
    await createApi(key, () => undefined).get('/arena/dashboard');
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return 'refused';
    return describeFailure(err);
  }
}

export function App() {
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });

  useEffect(() => {
    const stored = sessionStorage.getItem(KEY_STORAGE) ?? '';
    void tryKey(stored).then((outcome) => {
      if (outcome === 'ok') setPhase({ kind: 'console', key: stored });
      else if (outcome === 'refused') {
        sessionStorage.removeItem(KEY_STORAGE);
        // no stored key: the server simply wants one; a stored one that fails is worth saying so
        setPhase({
          kind: 'gate',
          ...(stored ? { message: 'The server no longer accepts the saved API key. Enter the current one.' } : {}),
        });
      } else setPhase({ kind: 'gate', message: outcome });
    });
  }, []);

  const submit = useCallback(async (key: string) => {
    const outcome = await tryKey(key);
    if (outcome === 'ok') {
      sessionStorage.setItem(KEY_STORAGE, key);
      setPhase({ kind: 'console', key });
      return undefined;
    }
    return outcome === 'refused'
      ? 'Wrong API key: the server answered 401 (missing or invalid API key). Nothing was saved.'
      : outcome;
  }, []);

  const signOut = useCallback((message?: string) => {
    sessionStorage.removeItem(KEY_STORAGE);
    setPhase({ kind: 'gate', ...(message ? { message } : {}) });
  }, []);

  if (phase.kind === 'checking') return <p class="boot">Connecting to the arena…</p>;
  if (phase.kind === 'gate') return <KeyGate message={phase.message} onSubmit={submit} />;
  return (
    <Console
      apiKey={phase.key}
      onUnauthorized={() =>
        signOut('The server refused the API key (401): it may have been restarted with another key.')
      }
      onSignOut={() => signOut()}
    />
  );
}
