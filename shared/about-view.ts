/**
 * Who makes the app and what it is (docs/screens.md#about-the-app), decided, worded and written on
 * the worker for the visitor's language: the "about this app" block and the footer's filing numbers
 * as escaped markup the page puts in as is (so the browser bundle carries no renderer for them), and,
 * for mainland China, the confirmation an APK download asks for first.
 */

/** The markup of the about block's inside and of the footer's filing numbers; null where not configured. */
export interface AboutMarkup {
  about: string | null;
  filings: string | null;
}

/**
 * Mainland China (docs/screens.md#mainland-china): a tap on an APK link shows these facts and
 * downloads only on "Download"; "Cancel" closes the sheet.
 */
export interface ApkConfirmView {
  title: string;
  /** The app's name, developer, version and size, labelled. */
  facts: { label: string; value: string }[];
  privacy: { label: string; href: string } | null;
  permissionsHeading: string;
  permissions: { name: string; purpose: string }[];
  download: string;
  cancel: string;
}

/** The attribute the confirmation's own Download link carries, so its tap is not confirmed again. */
export const CONFIRMED_ATTRIBUTE = 'data-confirmed';
