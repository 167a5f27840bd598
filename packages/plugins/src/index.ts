export type {
  EntryRenderer,
  MessageRenderer,
  RenderContext,
  RenderFormat,
} from "./render/types.js";
