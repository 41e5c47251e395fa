import { TextPage } from '@client/components/content/TextPage';

/** /pages/aboutUs/aboutUs: the "about" text from the server. */
export function AboutUsPage() {
  return <TextPage slug="about" titleKey="pages.aboutUs" />;
}
