import { Button, Card, Flex, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * `/` and `/home` (public). For now: what the service is and a login link; the public
 * look-up and prices of PRODUCT.md come with the landing-page issue.
 */
export default function LandingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Card style={{ maxWidth: 560, width: '100%' }}>
        <Typography.Title level={2}>{t('landing.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('landing.text')}</Typography.Paragraph>
        <Flex gap={8} wrap>
          <Button type="primary" onClick={() => void navigate('/login')}>
            {t('landing.login')}
          </Button>
          <Button onClick={() => void navigate('/linkstore')}>{t('landing.linkstore')}</Button>
        </Flex>
      </Card>
    </Flex>
  );
}
