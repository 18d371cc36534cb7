import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './api-mock';

// A page's first render loads its chunk (transformed on first use): give it time on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// Every request a component sends is answered by the mock API; an unanswered one fails the test.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
});
afterAll(() => server.close());
