export interface Item {
  name: string;
  price: number;
  quantity: number;
}

// TODO: support discounts
export function total(items: Item[]): number {
  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);
}

export function formatTotal(items: Item[]): string {
  return `${total(items).toFixed(2)} EUR`;
}
