import { TextPage } from '@client/components/content/TextPage';

/** /pages/yinsi/gy: the second privacy text ("privacy-2"), a short notice. */
export function PrivacyNoticePage() {
  return <TextPage slug="privacy-2" titleKey="pages.privacy2" />;
}
