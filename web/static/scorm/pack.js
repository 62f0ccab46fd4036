// "Download as an LMS package" (docs/lms.md): a SCORM 1.2 zip packed in the browser,
// loaded on the embed dialog's click only. The build's scorm/NAME.xml, written by
// `cargo xtask scorm`, is the package's imsmanifest.xml and lists every file the package
// holds: this fetches them from the site and zips them with npm fflate, as
// `cargo xtask package --scorm` zips them from dist/.
import { zipSync } from "./fflate.js";

/** The site's root: this module is in its scorm/ folder. */
const SITE = new URL("../", import.meta.url);

async function bytes(path) {
  const response = await fetch(new URL(path, SITE));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Packs the package `name` (e.g. `lesson-finalizers`) and downloads it; resolves to its file name.
 * With `button`, the page's, it says how it went in the status beside it.
 */
export async function download(name, button) {
  const status = button?.parentElement?.querySelector("[role=status]");
  const say = (text) => status && (status.textContent = text);
  if (button) button.disabled = true;
  say("Packing the playground…");
  try {
    const file = await pack(name);
    say(`Downloaded ${file}: import it into your LMS as SCORM 1.2.`);
    return file;
  } catch (error) {
    say(`The package could not be made: ${error.message}`);
    throw error;
  } finally {
    if (button) button.disabled = false;
  }
}

async function pack(name) {
  const manifest = await bytes(`scorm/${name}.xml`);
  const xml = new DOMParser().parseFromString(new TextDecoder().decode(manifest), "application/xml");
  if (xml.querySelector("parsererror")) throw new Error(`scorm/${name}.xml is not XML`);
  const files = { "imsmanifest.xml": manifest };
  const paths = [...xml.getElementsByTagName("file")].map((file) => file.getAttribute("href"));
  await Promise.all(paths.map(async (path) => (files[path] = await bytes(path))));
  // Synchronous: fflate's workers would need blob: scripts, which the page's policy forbids.
  const zip = zipSync(files);
  const file = `reconcile-playground-${name}.zip`;
  const url = URL.createObjectURL(new Blob([zip], { type: "application/zip" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: file });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return file;
}
