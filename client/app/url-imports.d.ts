// A file imported with `?url` is the URL of its built asset (Vite); the console links its stylesheet so.
declare module '*?url' {
  const url: string;
  export default url;
}
