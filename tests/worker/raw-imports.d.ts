/** Vite's `?raw` imports: a file's text, as the worker tests read sample files (no file system in workerd). */
declare module '*?raw' {
  const text: string;
  export default text;
}
