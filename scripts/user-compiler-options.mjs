// The TypeScript settings of a user's project: strict, Node's ES modules, no source condition
// (what the packages' built declarations must compile under). The API reports and the
// outside-project check both compile with these, so what one accepts the other does too.
export const USER_COMPILER_OPTIONS = Object.freeze({
  target: "ES2022",
  lib: ["ES2023"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  skipLibCheck: true,
  types: ["node"],
});
