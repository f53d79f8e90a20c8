import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';

export function Footer() {
  const { t } = useTranslation();
  return (
    <Layout.Footer className="app-footer">
      © {new Date().getFullYear()} {t('footer.text')}
    </Layout.Footer>
  );
}
