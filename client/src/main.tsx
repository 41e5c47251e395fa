import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function Starting() {
  return <p role="status">The app is starting…</p>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Starting />
  </StrictMode>,
);
