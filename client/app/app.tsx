/** The whole React tree, the same on the worker and in the browser; only the router differs. */
import type { ReactNode } from 'react';
import { HANDOFF_ELEMENT_ID } from '../../shared/handoff.ts';
import { Document } from './shell/document.tsx';
import { type Store, StoreProvider } from './store.tsx';

export interface AppProps {
  store: Store;
  /** The serialised hand-off, already escaped for a script element. */
  handoffJson: string;
  children: ReactNode;
}

export function App({ store, handoffJson, children }: AppProps) {
  return (
    <StoreProvider store={store}>
      <Document>
        {children}
        <script
          type="application/json"
          id={HANDOFF_ELEMENT_ID}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block escaped by serializeForScript
          dangerouslySetInnerHTML={{ __html: handoffJson }}
        />
      </Document>
    </StoreProvider>
  );
}
