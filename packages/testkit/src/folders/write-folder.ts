/**
 * A generated folder on disk, and as text for people: what `checkReader` prints for a shrunk
 * failure (every file name and line, the root written as `<sessions-root>`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type FolderFile, folderFileText, type SessionFolder } from "./folder-types.js";

/** Writes every file of `folder` under `root` (which must exist); returns the absolute paths. */
export function writeFolder(folder: SessionFolder, root: string): string[] {
  return folder.files.map((file) => {
    const path = join(root, ...file.path.split("/"));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, folderFileText(file, root));
    return path;
  });
}

/** Options of {@link formatFolder}. */
export interface FormatFolderOptions {
  /**
   * Longest line shown in full (default 400; `Infinity` for none): a longer line is cut, shows
   * its length, and a last line says lines were cut and how to get them whole.
   */
  readonly maxLineLength?: number;
}

function describe(file: FolderFile): string {
  const facts: string[] = [file.kind];
  if (file.source !== undefined) {
    facts.push(`${file.kind === "copy" ? "copy" : "made"} of ${file.source}`);
  }
  if (file.branchedAt !== undefined) facts.push(`at ${file.branchedAt}`);
  if (file.parentLink !== undefined) facts.push(`parentSession ${file.parentLink}`);
  if (file.values.length > 0) facts.push(`values: ${file.values.join(", ")}`);
  return facts.join("; ");
}

/** A line as printed, and whether it was cut. */
function showLine(line: string, max: number): { text: string; cut: boolean } {
  // Line separators are shown escaped, so a printed line is one line on a terminal too.
  const visible = line.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  const bom = visible.startsWith("\uFEFF") ? `(BOM)${visible.slice(1)}` : visible;
  if (bom.length <= max) return { text: bom, cut: false };
  return { text: `${bom.slice(0, max)}… (${bom.length} characters)`, cut: true };
}

/** Every file of `folder` with its facts and numbered lines. */
export function formatFolder(folder: SessionFolder, options: FormatFolderOptions = {}): string {
  const max = options.maxLineLength ?? 400;
  let cut = 0;
  const out: string[] = [
    `sessions root: ${folder.files.length} file(s)${
      folder.deleted.length > 0 ? `; deleted: ${folder.deleted.join(", ")}` : ""
    }`,
  ];
  for (const file of folder.files) {
    out.push(`${file.path}  (${describe(file)})`);
    const lines = file.text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    else out.push("    (no final newline)");
    lines.forEach((line, i) => {
      const shown = showLine(line, max);
      if (shown.cut) cut++;
      out.push(`  ${String(i + 1).padStart(3)} ${shown.text}`);
    });
  }
  if (cut > 0) {
    out.push(
      `(${cut} line(s) longer than ${max} characters cut here; writeFolder(folder, dir) writes them whole, maxLineLength shows more)`,
    );
  }
  return out.join("\n");
}
