import { TextPage } from '@client/components/content/TextPage';

/** /pages/yinsi/yinsi: the privacy policy from the server. */
export function PrivacyPage() {
  return <TextPage slug="privacy" titleKey="pages.privacy" />;
}
