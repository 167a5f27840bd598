/**
 * Paths that name a person or a machine (`--paths`): the session's working directory, as the
 * header's `cwd` says and as pi spells it in a sessions folder name (`--home-alice-app--`), and
 * home directories (`/home/alice`, `/Users/alice`, `C:\Users\alice`, `/root`).
 */
import { encodeResolvedCwd } from "@pi-sessions/core/internal";
import type { Detector } from "./detector.js";
import { patternDetector } from "./pattern-rules.js";

/** Home directories on Linux, macOS and Windows, up to the user name. */
const HOME_DIR =
  /(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)[^/\\\s"'`:;,|<>()[\]{}]+|\/root(?=[/\s"'`]|$)/;

/** The detector of home directories (rule `home-dir`). */
export function homeDirDetector(): Detector {
  return { ...patternDetector({ name: "home-dir", regex: HOME_DIR }), source: "paths" };
}

/** The strings `--paths` redacts for a header's `cwd`: itself and its folder-name spelling. */
export function cwdSecrets(cwd: string): string[] {
  const trimmed = cwd.replace(/[/\\]+$/, "");
  if (trimmed.length < 2) return [];
  return [trimmed, encodeResolvedCwd(trimmed)];
}
