import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteHandle } from '../config/paths.ts';

/**
 * The header of every screen: the route's translated title (from the route table) unless
 * `title` is given, an optional description, and actions on the right.
 */
export function PageHeader({ title, description, extra }: { title?: ReactNode; description?: ReactNode; extra?: ReactNode }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.route)?.handle as RouteHandle | undefined;
  const heading = title ?? (handle ? t(handle.route.meta.locale) : null);
  return (
    <Flex justify="space-between" align="flex-start" gap={16} wrap style={{ marginBottom: 16 }}>
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {heading}
        </Typography.Title>
        {description ? (
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            {description}
          </Typography.Paragraph>
        ) : null}
      </div>
      {extra ? <Flex gap={8}>{extra}</Flex> : null}
    </Flex>
  );
}
