/**
 * Mainland China's APK confirmation (docs/screens.md#mainland-china), worded on the worker for the
 * visitor's language. The about block and filing numbers travel as markup the worker wrote
 * (`Handoff.about`, worker/render/about-markup.ts).
 */

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
