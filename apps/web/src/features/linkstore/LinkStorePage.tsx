import { Button, Card, Empty, Flex, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** `/linkstore` (public). Links maintained through a dictionary type arrive with their issue. */
export default function LinkStorePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Card style={{ maxWidth: 560, width: '100%' }}>
        <Typography.Title level={3}>{t('linkstore.title')}</Typography.Title>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`${t('comingSoon.title')} · ${t('linkstore.text')}`} />
        <Button onClick={() => void navigate('/')}>{t('linkstore.back')}</Button>
      </Card>
    </Flex>
  );
}
