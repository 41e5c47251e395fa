import { TextPage } from '@client/components/content/TextPage';
import { LegalNotice } from '@client/components/Trust';

/** /pages/aboutUs/aboutUs: the "about" text from the server, then who runs the platform. */
export function AboutUsPage() {
  return (
    <>
      <TextPage slug="about" titleKey="pages.aboutUs" />
      <div className="about-trust">
        <LegalNotice />
      </div>
    </>
  );
}
