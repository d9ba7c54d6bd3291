// The web console's entry: the page's layout, and the login form while the API refuses the browser.
import { render } from 'preact';
import { useState } from 'preact/hooks';
import './style.css';
import { storedToken, storeToken } from './api.ts';
import { useCluster } from './cluster.ts';
import { Login } from './login.tsx';
import { Nav } from './nav.tsx';
import { KindPage } from './kind-page.tsx';
import { useRoute } from './route.ts';

function App() {
  // Bumped on sign-in and sign-out: everything is fetched again with the new credential.
  const [session, setSession] = useState(0);
  const cluster = useCluster(session);
  const route = useRoute();
  const signIn = (token: string | undefined): void => {
    storeToken(token);
    setSession((n) => n + 1);
  };
  const header = (
    <header class="top">
      <a class="brand" href="#/">
        crd-apiserver console
      </a>
      {storedToken() && (
        <button class="link" onClick={() => signIn(undefined)}>
          Sign out
        </button>
      )}
    </header>
  );
  if (cluster.error && (cluster.error.code === 401 || cluster.error.code === 403)) {
    return (
      <div class="app">
        {header}
        <Login error={cluster.error} onToken={signIn} />
      </div>
    );
  }
  return (
    <div class="app">
      {header}
      <div class="body">
        <Nav groups={cluster.groups} route={route} />
        <main class="main">
          {cluster.error && <p class="error">{cluster.error.message}</p>}
          {!cluster.groups && !cluster.error && <p class="muted">Loading…</p>}
          {cluster.groups && <KindPage key={`${session}`} cluster={cluster} route={route} />}
        </main>
      </div>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
