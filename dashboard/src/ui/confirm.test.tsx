import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/render';
import { ConfirmButton } from './confirm';

describe('a confirmation dialog', () => {
  it('gives focus back to the button that opened it when Escape closes it', async () => {
    const { user } = renderAt(
      '/test/x',
      <>
        <button type="button">Before</button>
        <ConfirmButton label="Delete" title="Delete it?" confirmLabel="Delete for good" onConfirm={() => Promise.resolve()}>
          <p>Gone for good.</p>
        </ConfirmButton>
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Delete' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Delete it?' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    // What a browser does on Escape in a modal dialog: a cancel event.
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.activeElement).toBe(opener);
  });

  it('gives focus back after Cancel too', async () => {
    const { user } = renderAt(
      '/test/x',
      <ConfirmButton label="Archive" title="Archive it?" confirmLabel="Archive" onConfirm={() => Promise.resolve()}>
        <p>Archived.</p>
      </ConfirmButton>,
    );
    await user.click(screen.getByRole('button', { name: 'Archive' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Archive' }));
  });
});
