// TODO: read the cart from a file
const items = [
  { name: 'apple', price: 0.5, quantity: 6 },
  { name: 'bread', price: 2.2, quantity: 1 },
];
const sum = items.reduce((s, i) => s + i.price * i.quantity, 0);
console.log(`Total: ${sum.toFixed(2)} EUR`);
