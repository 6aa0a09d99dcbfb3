import { formatPrice } from './format.js';

export function renderTotal(amount) {
  return `<p>${formatPrice(amount)}</p>`;
}
