/** The whole React tree, the same on the worker and in the browser; only the router differs. */
import type { ReactNode } from 'react';
import { HANDOFF_ELEMENT_ID, type Handoff } from '../../shared/handoff.ts';
import { Document } from './shell/document.tsx';
import { createLearnedStore, type LearnedStore, StoreProvider } from './store.tsx';

export interface AppProps {
  /** What the worker hands over (shared/handoff.ts). */
  handoff: Handoff;
  /** What the browser learns; on the worker, nothing yet: the state the hand-off implies. */
  learned?: LearnedStore;
  /** The serialised hand-off, already escaped for a script element. */
  handoffJson: string;
  children: ReactNode;
}

export function App({ handoff, learned = createLearnedStore(handoff), handoffJson, children }: AppProps) {
  return (
    <StoreProvider handoff={handoff} learned={learned}>
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
