package dev.gpugen.spec;

/** An IPv4 CIDR block, already syntax-checked by the reader. */
public record Cidr(long network, int bits) {
  public static Cidr parse(String text) {
    String[] parts = text.split("/");
    long addr = 0;
    for (String octet : parts[0].split("\\.")) {
      addr = (addr << 8) | Integer.parseInt(octet);
    }
    return new Cidr(addr, Integer.parseInt(parts[1]));
  }

  public long mask() {
    return bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
  }

  public boolean hasHostBits() {
    return (network & ~mask() & 0xFFFFFFFFL) != 0;
  }

  public Cidr canonical() {
    return new Cidr(network & mask(), bits);
  }

  public boolean contains(Cidr inner) {
    return inner.bits >= bits && (inner.network & mask()) == (network & mask());
  }

  @Override
  public String toString() {
    return ((network >> 24) & 255)
        + "."
        + ((network >> 16) & 255)
        + "."
        + ((network >> 8) & 255)
        + "."
        + (network & 255)
        + "/"
        + bits;
  }
}
