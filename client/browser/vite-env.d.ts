// Types of Vite's import suffixes (`?url`) for browser code.
/// <reference types="vite/client" />
