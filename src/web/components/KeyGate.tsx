/** Asks for the API key once per tab; a refused key is said so and not kept. */
import { useState } from 'preact/hooks';

export function KeyGate(props: { message?: string; onSubmit(key: string): Promise<string | undefined> }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!key.trim()) return setError('Enter the API key (the --api-key or ARENA_API_KEY of `arena serve`).');
    setBusy(true);
    setError(await props.onSubmit(key.trim()));
    setBusy(false);
  };

  return (
    <main class="gate">
      <form class="card gate-card" onSubmit={submit} data-testid="key-gate">
        <h1>Chaos Arena</h1>
        <p>
          This arena needs its API key. It is kept in this tab only (session storage) and sent as the{' '}
          <code>X-API-Key</code> header.
        </p>
        {props.message && !error && (
          <p class="notice" role="status">
            {props.message}
          </p>
        )}
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="current-password"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          autofocus
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Open console'}
        </button>
        {error && (
          <p class="error" role="alert" data-testid="key-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
