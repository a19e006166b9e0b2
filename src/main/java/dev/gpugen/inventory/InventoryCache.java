package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The {@code --list} document of one configuration, kept in a file for {@code cacheTtlSeconds}.
 *
 * <p>The file is one header line (JSON: format, the configuration's key, when it was written, the
 * body's length and CRC32C, the warnings) and then the exact bytes {@code --list} printed. A hit
 * copies those bytes out unparsed, which keeps a cached run well under half a second at 16,000
 * hosts. A file for another configuration, an expired one, and a damaged one are misses: ignored,
 * and rewritten by the run that follows. Writes go to a temporary file in the same directory that
 * is then renamed over the old one, so a reader sees the old file or the new one, never half.
 */
public final class InventoryCache {
  static final int FORMAT = 1;

  /** What a hit returns. */
  public record Entry(byte[] body, List<String> warnings) {
    public Entry {
      warnings = List.copyOf(warnings);
    }
  }

  /** The header line. */
  record Header(
      int format,
      String key,
      long writtenAtMillis,
      long length,
      String crc32c,
      List<String> warnings) {
    byte[] toJson() throws IOException {
      return Json.bytes(
          json -> {
            json.writeStartObject();
            json.writeNumberField("format", format);
            json.writeStringField("key", key);
            json.writeNumberField("writtenAtMillis", writtenAtMillis);
            json.writeNumberField("length", length);
            json.writeStringField("crc32c", crc32c);
            strings(json, "warnings", warnings);
            json.writeEndObject();
          });
    }

    /** The header read back; throws on anything that is not one. */
    static Header of(Object parsed) {
      Map<?, ?> map = (Map<?, ?>) parsed;
      List<String> warnings = new ArrayList<>();
      for (Object w : (List<?>) map.get("warnings")) {
        warnings.add((String) w);
      }
      return new Header(
          ((Long) map.get("format")).intValue(),
          (String) map.get("key"),
          (Long) map.get("writtenAtMillis"),
          (Long) map.get("length"),
          (String) map.get("crc32c"),
          warnings);
    }
  }

  private final Path file;
  private final String key;
  private final Clock clock;

  /**
   * @param dir the cache directory
   * @param key {@link #key} of the configuration
   * @param clock the time source for the TTL
   */
  public InventoryCache(Path dir, String key, Clock clock) {
    this.file = dir.resolve("inventory-" + key.substring(0, 16) + ".json");
    this.key = key;
    this.clock = clock;
  }

  /** The cache file. */
  public Path file() {
    return file;
  }

  /**
   * The key of everything the {@code --list} bytes depend on: the settings that select and shape
   * the output, the regions, and the account/endpoint the SDK would pick from the environment.
   * Credentials are never part of it except the access key id, and that only through the hash.
   */
  public static String key(InventoryConfig config, Map<String, String> env) {
    try {
      byte[] canonical =
          Json.bytes(
              json -> {
                json.writeStartObject();
                json.writeNumberField("format", FORMAT);
                json.writeStringField("cluster", config.cluster());
                json.writeStringField("environment", config.environment().orElse(null));
                strings(json, "regions", config.regions());
                json.writeObjectFieldStart("pools");
                for (Map.Entry<String, PoolSoftware> pool : config.pools().entrySet()) {
                  PoolSoftware p = pool.getValue();
                  strings(
                      json,
                      pool.getKey(),
                      List.of(
                          p.instanceType().orElse(""),
                          p.driver().orElse(""),
                          p.cuda().orElse(""),
                          p.containerToolkit().orElse("")));
                }
                json.writeEndObject();
                json.writeStringField("hostname", config.hostname().setting());
                json.writeStringField("ansibleHost", config.ansibleHost().setting());
                strings(json, "states", config.states());
                json.writeStringField(
                    "endpoint", config.endpoint().map(Object::toString).orElse(null));
                for (String name :
                    List.of(
                        "AWS_PROFILE",
                        "AWS_ENDPOINT_URL",
                        "AWS_ENDPOINT_URL_EC2",
                        "AWS_ACCESS_KEY_ID")) {
                  json.writeStringField(name, env.get(name));
                }
                json.writeEndObject();
              });
      return Sha256.hex(canonical);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void strings(JsonGenerator json, String name, List<String> values)
      throws IOException {
    json.writeArrayFieldStart(name);
    for (String value : values) {
      json.writeString(value);
    }
    json.writeEndArray();
  }

  /**
   * The cached document if it is this configuration's, younger than {@code ttlSeconds}, and intact.
   *
   * @param why receives the reason for a miss (for {@code --verbose})
   */
  public Optional<Entry> read(long ttlSeconds, Consumer<String> why) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      why.accept("no cache file " + file);
      return Optional.empty();
    } catch (IOException e) {
      why.accept("cannot read cache file " + file + ": " + e.getMessage());
      return Optional.empty();
    }
    int newline = indexOf(bytes, (byte) '\n');
    if (newline < 0) {
      why.accept("cache file " + file + " has no header; ignoring it");
      return Optional.empty();
    }
    Header header;
    try {
      header = Header.of(Json.parse(Arrays.copyOf(bytes, newline)));
    } catch (IOException | RuntimeException e) {
      why.accept("cache file " + file + " has a damaged header; ignoring it");
      return Optional.empty();
    }
    if (header.format() != FORMAT || !key.equals(header.key())) {
      why.accept("cache file " + file + " is for other settings; ignoring it");
      return Optional.empty();
    }
    long age = clock.millis() - header.writtenAtMillis();
    if (age < 0 || age > ttlSeconds * 1000) {
      why.accept(
          "cache file " + file + " is " + (age / 1000) + " s old (ttl " + ttlSeconds + " s)");
      return Optional.empty();
    }
    int start = newline + 1;
    int length = bytes.length - start;
    if (header.length() != length || !crc(bytes, start, length).equals(header.crc32c())) {
      why.accept("cache file " + file + " is damaged; ignoring it");
      return Optional.empty();
    }
    byte[] body = new byte[length];
    System.arraycopy(bytes, start, body, 0, length);
    return Optional.of(new Entry(body, header.warnings()));
  }

  /** Replaces the cache file atomically with {@code body}. */
  public void write(byte[] body, List<String> warnings) throws IOException {
    Path dir = file.getParent();
    if (!Files.isDirectory(dir)) {
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectories(dir);
      }
    }
    Header header =
        new Header(FORMAT, key, clock.millis(), body.length, crc(body, 0, body.length), warnings);
    byte[] head = header.toJson();
    // createTempFile makes the file readable by its owner only.
    Path tmp = Files.createTempFile(dir, ".inventory-", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE);
          OutputStream out = Channels.newOutputStream(channel)) {
        out.write(head);
        out.write('\n');
        out.write(body);
        out.flush();
        channel.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static String crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return Long.toHexString(crc.getValue());
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
