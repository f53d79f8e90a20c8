// The baseline of bench/login-workplace.bench.ts: the least an antd 6 app does between a sign-in
// click and a page of content. A login form (antd Form, Input, Button); the click posts to the
// bare server's /noop, then loads the content's chunk (as a lazy route does) and shows it.
// createElement, not JSX: Vite builds it with no plugin.
import { Button, Form, Input } from 'antd';
import { createElement as h, lazy, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';

const Content = lazy(() => import('./content.ts'));

function App() {
  const [signedIn, setSignedIn] = useState(false);
  const [busy, setBusy] = useState(false);
  if (signedIn) return h(Suspense, { fallback: null }, h(Content));
  const submit = async () => {
    setBusy(true);
    await fetch('/noop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    setSignedIn(true);
  };
  return h(
    'main',
    { style: { maxWidth: 360, margin: '0 auto', padding: '48px 16px' } },
    h(
      Form,
      { onFinish: () => void submit(), layout: 'vertical' },
      h(Form.Item, { name: 'username' }, h(Input, { placeholder: '用户名', size: 'large', 'data-testid': 'bare-username' })),
      h(Form.Item, { name: 'password' }, h(Input.Password, { placeholder: '密码', size: 'large', 'data-testid': 'bare-password' })),
      h(Button, { type: 'primary', htmlType: 'submit', size: 'large', block: true, loading: busy, 'data-testid': 'bare-submit' }, '登录'),
    ),
  );
}

createRoot(document.getElementById('root')!).render(h(App));
