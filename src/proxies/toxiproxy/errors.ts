/**
 * Toxiproxy's API errors: its messages and statuses (api.go, the `Err…`
 * variables), so a client's own error handling sees what it would see from
 * the Go server. The body is `{"error": message, "status": status}`.
 */
export class ToxiproxyApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  body(): { error: string; status: number } {
    return { error: this.message, status: this.status };
  }
}

/** `joinError(err, ErrBadRequestBody)`: "bad request body: <detail>" */
export const badBody = (detail: string) => new ToxiproxyApiError(`bad request body: ${detail}`, 400);
/** `joinError(fmt.Errorf(field), ErrMissingField)` */
export const missingField = (field: string) => new ToxiproxyApiError(`missing required field: ${field}`, 400);
export const proxyNotFound = () => new ToxiproxyApiError('proxy not found', 404);
export const proxyExists = () => new ToxiproxyApiError('proxy already exists', 409);
export const invalidStream = () =>
  new ToxiproxyApiError('stream was invalid, can be either upstream or downstream', 400);
export const invalidToxicType = () => new ToxiproxyApiError('invalid toxic type', 400);
export const toxicExists = () => new ToxiproxyApiError('toxic already exists', 409);
export const toxicNotFound = () => new ToxiproxyApiError('toxic not found', 404);
