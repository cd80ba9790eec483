// Saving bytes made in the page as a file the browser downloads.

/** save downloads data (bytes, a string or a Blob) as a file called name of type mime. */
export function save(data, name, mime) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
