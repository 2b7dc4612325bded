export { Circle as Round, clamp } from "./shapes";
export * from "./shapes";
