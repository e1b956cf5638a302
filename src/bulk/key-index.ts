// An exact string → line-number index kept in typed arrays instead of a Map. The validation
// pass of `invite --csv` remembers the first line of every candidate key so the sending pass can
// tell first rows from duplicates; at 50,000 rows a Map<string, number> is ~7.5 MB of live heap
// that V8 keeps scanning and sizes its old generation around, this is ~3 MB outside the heap.
// Keys are stored as UTF-8 back to back; an open-addressing table (linear probing, load ≤ 1/2)
// holds entry numbers. Lookups compare the bytes, so there are no false matches.

const EMPTY = 0; // table slots hold entry number + 1

export class KeyIndex {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** starts[i]..starts[i + 1] are the bytes of entry i. */
  private starts = new Int32Array(1024 + 1);
  private lines = new Int32Array(1024);
  private table = new Int32Array(2048);
  private count = 0;
  private scratch = Buffer.allocUnsafe(1024);

  get size(): number {
    return this.count;
  }

  /** The line stored for `key`, or undefined. */
  get(key: string): number | undefined {
    const n = this.encode(key);
    const slot = this.find(n, hash(this.scratch, n));
    const e = this.table[slot]!;
    return e === EMPTY ? undefined : this.lines[e - 1];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores `line` for `key` unless the key is already there; true when it was added. */
  setIfAbsent(key: string, line: number): boolean {
    const n = this.encode(key);
    const h = hash(this.scratch, n);
    const slot = this.find(n, h);
    if (this.table[slot] !== EMPTY) return false;
    this.append(n, line);
    this.table[slot] = this.count; // entry number + 1
    if (this.count * 2 > this.table.length) this.rehash();
    return true;
  }

  /** Every key, in the order they were added. */
  *keys(): Generator<string> {
    for (let i = 0; i < this.count; i++) yield this.bytes.toString('utf8', this.starts[i]!, this.starts[i + 1]!);
  }

  private encode(key: string): number {
    const max = Buffer.byteLength(key);
    if (max > this.scratch.length) this.scratch = Buffer.allocUnsafe(max * 2);
    return this.scratch.write(key, 0, 'utf8');
  }

  /** The slot holding the scratch key, or the empty slot where it would go. */
  private find(n: number, h: number): number {
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.table[slot]!;
      if (e === EMPTY) return slot;
      const start = this.starts[e - 1]!;
      const end = this.starts[e]!;
      if (end - start === n && this.scratch.compare(this.bytes, start, end, 0, n) === 0) return slot;
    }
  }

  private append(n: number, line: number): void {
    if (this.used + n > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + n));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.scratch.copy(this.bytes, this.used, 0, n);
    if (this.count === this.lines.length) {
      this.lines = grow(this.lines, this.lines.length * 2);
      this.starts = grow(this.starts, this.lines.length + 1);
    }
    this.starts[this.count] = this.used;
    this.used += n;
    this.lines[this.count] = line;
    this.count++;
    this.starts[this.count] = this.used;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = hash(this.bytes, this.starts[i + 1]!, this.starts[i]!) & mask;
      while (table[slot] !== EMPTY) slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
    this.table = table;
  }
}

function grow(a: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

/** FNV-1a over bytes [start, end). */
function hash(buf: Buffer, end: number, start = 0): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h >>> 0;
}
