// The committed API report of one package: API Extractor reads the package's built entry
// (dist/index.d.ts, so run `build` first) and writes what it exports, signature by signature,
// to api/<name>.api.md. `node ../../scripts/api-report.mjs` (run in the package folder) fails
// with the difference when the exported surface no longer matches the committed report, so a
// change of surface shows in review; `--update` rewrites the report instead (`pnpm api:update`).
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { USER_COMPILER_OPTIONS } from "./user-compiler-options.mjs";

const update = process.argv.includes("--update");
const projectFolder = process.cwd();
const pkg = JSON.parse(readFileSync(join(projectFolder, "package.json"), "utf8"));
const { name } = pkg;
// One report per entry of the package (`.` and, for core, `./internal`): each is surface.
const entries = Object.entries(pkg.exports ?? { ".": { types: "./dist/index.d.ts" } })
  .map(([key, value]) => [key, typeof value === "object" ? value.types : undefined])
  .filter(([, types]) => typeof types === "string" && types.endsWith(".d.ts"));
// Scratch output lives under node_modules, which git ignores and no build cache restores.
const tempFolder = join(projectFolder, "node_modules/.cache/api-extractor");
mkdirSync(tempFolder, { recursive: true });
if (update) mkdirSync(join(projectFolder, "api"), { recursive: true });

for (const [entry, types] of entries) {
  const dts = types.replace(/^\.\//, "");
  const suffix = entry === "." ? "" : `-${entry.replace(/^\.\//, "").replace(/\//g, "-")}`;
  const config = ExtractorConfig.prepare({
    configObjectFullPath: join(projectFolder, "api-extractor.json"),
    packageJsonFullPath: join(projectFolder, "package.json"),
    configObject: {
      projectFolder,
      mainEntryPointFilePath: `<projectFolder>/${dts}`,
      bundledPackages: [],
      newlineKind: "lf",
      compiler: {
        // The built declarations alone, resolved as a user's compiler would (no source condition).
        overrideTsconfig: {
          compilerOptions: { ...USER_COMPILER_OPTIONS },
          files: [dts],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: `<unscopedPackageName>${suffix}`,
        reportFolder: "<projectFolder>/api/",
        reportTempFolder: tempFolder,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: "warning" } },
        extractorMessageReporting: {
          default: { logLevel: "warning" },
          // Our exports carry no @public/@beta tags: the package's entry is what is public, so a
          // missing release tag is no finding (tagging hundreds of names by hand would add noise).
          "ae-missing-release-tag": { logLevel: "none" },
          // A type reachable from an export but not exported itself is part of the surface: it is
          // written into the report (so a change shows) rather than failing the build.
          "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
          // Documentation quality (a member without a comment, a {@link} to a name that is not
          // exported) is not the surface either; the review of the source covers it.
          "ae-undocumented": { logLevel: "none" },
          "ae-unresolved-link": { logLevel: "none" },
          // pi's own typings (which the `/pi` entry names) import a JSON data file; the report
          // shows pi's types by reference and never analyses that file.
          "ae-wrong-input-file-type": { logLevel: "none" },
        },
        // TSDoc style (e.g. an unknown tag or an unescaped character) is not the surface.
        tsdocMessageReporting: { default: { logLevel: "none" } },
      },
    },
  });

  const result = Extractor.invoke(config, {
    localBuild: update,
    printApiReportDiff: !update,
    showVerboseMessages: false,
  });
  if (result.succeeded) {
    console.log(
      `api-report: ${name}${suffix} ${update ? "report written" : "matches api/ report"}`,
    );
  } else if (result.apiReportChanged && !update) {
    console.error(
      `api-report: ${name}${suffix}'s exported surface differs from its committed report (diff above); if the change is meant, run \`pnpm api:update\` and commit the report`,
    );
    process.exitCode = 1;
  } else {
    console.error(
      `api-report: ${name}: ${result.errorCount} errors, ${result.warningCount} warnings`,
    );
    process.exitCode = 1;
  }
}
