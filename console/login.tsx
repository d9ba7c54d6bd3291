// Shown when the API answers 401 or 403 to discovery: the server's message, and a bearer token to try instead.
import { useState } from 'preact/hooks';
import type { ApiError } from './api.ts';

export function Login({ error, onToken }: { error: ApiError; onToken(token: string): void }) {
  const [token, setToken] = useState('');
  return (
    <form
      class="login"
      onSubmit={(e) => {
        e.preventDefault();
        if (token.trim()) onToken(token.trim());
      }}
    >
      <h2>Sign in</h2>
      <p class="error" role="alert">
        {error.code} {error.message}
      </p>
      <p class="muted">
        The console reads the API with your credentials: the client certificate your browser presents, or a bearer token (kept in this tab's session
        storage only).
      </p>
      <label>
        Bearer token
        <input name="token" type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}
