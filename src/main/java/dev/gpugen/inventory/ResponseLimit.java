package dev.gpugen.inventory;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Cuts off a response body longer than a bound, so an endless body cannot fill the heap. */
final class ResponseLimit {
  /** The body went past the bound. */
  static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    TooLargeException(long limit) {
      super("a response body larger than " + (limit >> 20) + " MiB");
    }
  }

  private ResponseLimit() {}

  /** {@code body}, failing with {@link TooLargeException} past {@code limit} bytes. */
  static InputStream bounded(InputStream body, long limit) {
    return new Bounded(body, limit);
  }

  private static final class Bounded extends FilterInputStream {
    private final long limit;
    private long read;

    Bounded(InputStream in, long limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) throws IOException {
      read += n;
      if (read > limit) {
        throw new TooLargeException(limit);
      }
    }
  }
}
