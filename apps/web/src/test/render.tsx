// Renders a house component as the app shows it: antd's zh-CN locale and App (message,
// modal), TanStack Query with the app's defaults, antd's animations off (as the app does for
// reduced motion), so a dialog is there or gone without waiting for a transition. antd's
// CSS-in-JS styles are computed but not put into the page (`mock="server"`): the tests check
// behaviour, and jsdom would match every rule on every computed style (decision 0037).
import type { ReactElement, ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { StyleProvider } from '@ant-design/cssinjs';
import antdZhCN from 'antd/locale/zh_CN';
import { Provider as MotionProvider } from '@rc-component/motion';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <StyleProvider mock="server">
      <MotionProvider motion={false}>
        <ConfigProvider locale={antdZhCN}>
          <AntApp>{children}</AntApp>
        </ConfigProvider>
      </MotionProvider>
    </StyleProvider>
  );
}

/** The page with `ui` in it and a user to act on it. */
export function renderInApp(
  ui: ReactElement,
  { user = userEvent.setup() } = {},
): RenderResult & { user: ReturnType<typeof userEvent.setup> } {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const result = render(ui, {
    wrapper: ({ children }) => (
      <QueryClientProvider client={queryClient}>
        <Providers>{children}</Providers>
      </QueryClientProvider>
    ),
  });
  return { ...result, user };
}
