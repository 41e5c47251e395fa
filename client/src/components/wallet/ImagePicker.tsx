import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from '@client/components/error-text';
import type { MessageKey } from '@client/components/form/validation';
import { ImageProblem, prepareImage } from './image';
import './picker.css';

/** A chosen picture, ready to send, with an object URL for its preview. */
export interface PickedImage {
  blob: Blob;
  url: string;
}

/**
 * Picks one image, shows it, and lets the user replace it. With `camera`, two ways in: take a
 * photo (`capture`: the phone opens its camera) or choose one from the album. Large pictures are
 * made smaller here (image.ts) before anything is sent.
 */
export function ImagePicker({
  label,
  testId,
  value,
  onChange,
  error,
  placeholder,
  camera = false,
  disabled = false,
}: {
  label: string;
  testId: string;
  value: PickedImage | null;
  onChange: (picked: PickedImage) => void;
  error: MessageKey | null;
  placeholder: string;
  camera?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ImageProblem['reason'] | null>(null);

  // The preview URL lives as long as its picture is the chosen one.
  useEffect(() => {
    const url = value?.url;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [value]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so that choosing the same file again is still a change.
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    setProblem(null);
    prepareImage(file)
      .then(
        (blob) => onChange({ blob, url: URL.createObjectURL(blob) }),
        (err: unknown) => setProblem(err instanceof ImageProblem ? err.reason : 'unreadable'),
      )
      .finally(() => setBusy(false));
  };

  const message = problem ? t(`wallet.image.${problem}`) : error ? messageText(t, error) : null;
  const describedBy = message ? `${id}-error` : undefined;
  const input = (inputId: string, inputTestId: string, capture: boolean, text: string) => (
    <label className="button button--secondary button--small picker__button">
      <input
        id={inputId}
        type="file"
        accept="image/*"
        capture={capture ? 'environment' : undefined}
        className="visually-hidden"
        data-testid={inputTestId}
        aria-label={`${label}: ${text}`}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        disabled={disabled || busy}
        onChange={choose}
      />
      {text}
    </label>
  );

  return (
    <div className={`field picker${message ? ' field--invalid' : ''}`}>
      <span className="field__label">{label}</span>
      {/* The whole box opens the (first) picker: a large target on a phone. */}
      <label htmlFor={`${id}-main`} className="picker__box">
        {value ? (
          <img
            className="picker__preview"
            src={value.url}
            alt={t('wallet.image.preview', { what: label })}
            data-testid={`${testId}-preview`}
          />
        ) : (
          <span className="picker__empty">{busy ? t('wallet.image.preparing') : placeholder}</span>
        )}
      </label>
      <div className="picker__actions">
        {input(
          `${id}-main`,
          testId,
          camera,
          camera
            ? t(value ? 'wallet.image.retake' : 'wallet.image.takePhoto')
            : t(value ? 'wallet.image.replace' : 'wallet.image.choose'),
        )}
        {camera &&
          input(
            `${id}-album`,
            `${testId}-album`,
            false,
            t(value ? 'wallet.image.chooseAnother' : 'wallet.image.fromAlbum'),
          )}
      </div>
      {message && (
        <p className="field__error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}
