import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initOpsI18n } from './i18n';
import { OpsApp } from './App';
import './ops.css';

const root = createRoot(document.getElementById('ops-root')!);
void initOpsI18n().finally(() =>
  root.render(
    <StrictMode>
      <OpsApp />
    </StrictMode>,
  ),
);
