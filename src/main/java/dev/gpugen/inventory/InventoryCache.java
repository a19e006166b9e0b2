package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.security.auth.module.UnixSystem;
import dev.gpugen.json.Json;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@code --list} document of one configuration, kept in a file for {@code cacheTtlSeconds}.
 *
 * <p>Two files per configuration: {@code inventory-KEY.json} holds the exact bytes {@code --list}
 * printed, and {@code inventory-KEY.meta} one JSON header (format, the configuration's key, when it
 * was written, the body's length, the warnings, the body file's identity and an HMAC-SHA256 of all
 * of these). A hit copies the body out unparsed, which keeps a cached run fast at 16,000 hosts.
 *
 * <p>The cache is never trusted more than EC2 itself: the folder and every file in it must belong
 * to the current user and be writable by nobody else, or they are not used (a warning says why),
 * and the body file is authenticated with a key in the folder that only the user can read. The MAC
 * covers the body file's identity (device, inode, size, modification and status-change times)
 * instead of its 12 MB of bytes: the kernel moves the status-change time on every write, truncate,
 * rename or mode change and no unprivileged call can set it back (POSIX, sys/stat.h: st_ctime;
 * https://man7.org/linux/man-pages/man7/inode.7.html), so a body another writer replaced or edited,
 * or a copy of the folder, no longer matches, and a hit does not pay for hashing the body (HMAC of
 * 12 MB was most of a cached run). A file for another configuration or identity, an expired one, a
 * symbolic link, a FIFO and an oversized file are misses too. Each file is written to a temporary
 * file in the same directory and renamed over the old one, so a reader sees the old file or the new
 * one, never half; a header that does not match the body it finds is a miss.
 */
public final class InventoryCache {
  static final int FORMAT = 3;

  /** A 16,000-host document is about 12 MB; far more is not one of ours. */
  static final long MAX_FILE_BYTES = 256L << 20;

  /** The profile files are read for the key only, and are small. */
  static final long MAX_PROFILE_BYTES = 1 << 20;

  static final String KEY_FILE = ".hmac-key";

  /** The AWS variables that choose the account, identity or endpoint (part of the key). */
  static final List<String> IDENTITY_ENV =
      List.of(
          "AWS_PROFILE",
          "AWS_DEFAULT_PROFILE",
          "AWS_ACCESS_KEY_ID",
          "AWS_ROLE_ARN",
          "AWS_ROLE_SESSION_NAME",
          "AWS_WEB_IDENTITY_TOKEN_FILE",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_ENDPOINT_URL",
          "AWS_ENDPOINT_URL_EC2",
          "AWS_ENDPOINT_URL_STS",
          "AWS_CONFIG_FILE",
          "AWS_SHARED_CREDENTIALS_FILE");

  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  private static final Set<PosixFilePermission> OTHERS_WRITE =
      Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

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
      String identity,
      String mac,
      List<String> warnings) {
    byte[] toJson() throws IOException {
      return Json.bytes(
          json -> {
            json.writeStartObject();
            json.writeNumberField("format", format);
            json.writeStringField("key", key);
            json.writeNumberField("writtenAtMillis", writtenAtMillis);
            json.writeNumberField("length", length);
            json.writeStringField("identity", identity);
            json.writeStringField("mac", mac);
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
          (String) map.get("identity"),
          (String) map.get("mac"),
          warnings);
    }

    /** What the MAC covers: everything a reader acts on, and the body file it vouches for. */
    byte[] signed() {
      return (format
              + "\n"
              + key
              + "\n"
              + writtenAtMillis
              + "\n"
              + length
              + "\n"
              + identity
              + "\n"
              + warnings)
          .getBytes(StandardCharsets.UTF_8);
    }
  }

  /** A header is a few hundred bytes plus the warnings. */
  static final long MAX_HEADER_BYTES = 1 << 20;

  private final Path dir;
  private final Path file;
  private final Path meta;
  private final String key;
  private final Clock clock;

  /**
   * @param dir the cache directory
   * @param key {@link #key} of the configuration
   * @param clock the time source for the TTL
   */
  public InventoryCache(Path dir, String key, Clock clock) {
    this.dir = dir;
    this.file = dir.resolve("inventory-" + key.substring(0, 16) + ".json");
    this.meta = dir.resolve("inventory-" + key.substring(0, 16) + ".meta");
    this.key = key;
    this.clock = clock;
  }

  /** The cache file: the {@code --list} bytes. */
  public Path file() {
    return file;
  }

  /** The header beside it. */
  Path meta() {
    return meta;
  }

  /**
   * The key of everything the {@code --list} bytes depend on: the settings that select and shape
   * the output, the regions, and the account, identity and endpoint the SDK would pick from the
   * environment: the AWS variables that name them ({@link #IDENTITY_ENV}) and the contents of the
   * AWS config and credentials files (profiles, role ARNs, SSO accounts). Secrets enter only
   * through the hash, and no network call is needed, so a hit stays fast.
   */
  public static String key(InventoryConfig config, Map<String, String> env) {
    return key(config, env, Profiles.read(env));
  }

  /** {@link #key(InventoryConfig, Map)} with the profile files already read. */
  static String key(InventoryConfig config, Map<String, String> env, Profiles profiles) {
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
                strings(
                    json,
                    "hostnames",
                    config.hostnames().stream().map(HostnameSource::setting).toList());
                json.writeStringField("ansibleHost", config.ansibleHost().setting());
                json.writeStringField("connection", config.connection().method());
                json.writeStringField(
                    "ssmBucketPrefix", config.connection().ssmBucketPrefix().orElse(null));
                json.writeStringField("proxyJump", config.connection().proxyJump().orElse(null));
                json.writeStringField("user", config.connection().user().orElse(null));
                strings(json, "states", config.states());
                json.writeArrayFieldStart("keyedGroups");
                for (KeyedGroup g : config.keyedGroups()) {
                  json.writeString(g.tag());
                  json.writeString(g.prefix());
                }
                json.writeEndArray();
                json.writeObjectFieldStart("filters");
                for (Map.Entry<String, List<String>> f : config.filters().entrySet()) {
                  strings(json, f.getKey(), f.getValue());
                }
                json.writeEndObject();
                json.writeStringField(
                    "endpoint", config.endpoint().map(Object::toString).orElse(null));
                json.writeStringField(
                    "assumeRole",
                    config
                        .assumeRole()
                        .map(
                            r ->
                                r.roleArn()
                                    + " "
                                    + r.externalId().map(Sha256::hex).orElse("")
                                    + " "
                                    + r.sessionName())
                        .orElse(null));
                for (String name : IDENTITY_ENV) {
                  json.writeStringField(name, env.get(name));
                }
                json.writeStringField("config", profiles.config());
                json.writeStringField("credentials", profiles.credentials());
                json.writeEndObject();
              });
      return Sha256.hex(canonical);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The AWS config and credentials files as the key sees them: each one's SHA-256, or "absent", or
   * "unreadable"; and why the files cannot key the cache, if they cannot: one is there but cannot
   * be read whole as a regular file (AWS_CONFIG_FILE=/dev/null, a folder, a FIFO), so its profiles
   * could change without the key changing. The cache is then off: no run is served from it, and
   * none writes one.
   */
  record Profiles(String config, String credentials, Optional<String> unreadable) {
    /** Reads each file once. */
    static Profiles read(Map<String, String> env) {
      List<String> problems = new ArrayList<>();
      String config = digest(env, "AWS_CONFIG_FILE", "config", problems);
      String credentials = digest(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials", problems);
      return new Profiles(config, credentials, problems.stream().findFirst());
    }

    private static String digest(
        Map<String, String> env, String variable, String name, List<String> problems) {
      try {
        return Sha256.hex(readProfile(env, variable, name));
      } catch (NoSuchFileException e) {
        return "absent";
      } catch (IOException e) {
        problems.add(e.getMessage());
        return "unreadable";
      }
    }
  }

  private static byte[] readProfile(Map<String, String> env, String variable, String name)
      throws IOException {
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    Path path =
        env.containsKey(variable) ? Path.of(env.get(variable)) : Path.of(home, ".aws", name);
    return BoundedFiles.read(path, MAX_PROFILE_BYTES, "AWS " + name + " file");
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
   * Why the cache folder must not be used (another user's, writable by others, not a folder), or
   * empty if it is fine or does not exist yet.
   */
  public Optional<String> unsafeFolder() {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    return unsafe(dir, true);
  }

  private static Optional<String> unsafe(Path path, boolean folder) {
    try {
      if (folder
          ? !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
          : !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of(path + " is not a " + (folder ? "folder" : "regular file"));
      }
      Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (!(uid instanceof Integer owner) || owner.longValue() != new UnixSystem().getUid()) {
        return Optional.of(path + " belongs to another user");
      }
      Set<PosixFilePermission> mode =
          Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
      if (mode.stream().anyMatch(OTHERS_WRITE::contains)) {
        return Optional.of(
            path + " is writable by others (" + PosixFilePermissions.toString(mode) + ")");
      }
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.of("cannot check the owner and mode of " + path + ": " + e);
    }
  }

  /**
   * The cached document if it is this configuration's, younger than {@code ttlSeconds}, the user's
   * own, and authentic.
   *
   * @param why receives the reason for a miss (for {@code --verbose})
   */
  public Optional<Entry> read(long ttlSeconds, Consumer<String> why) {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)
        || !Files.exists(meta, LinkOption.NOFOLLOW_LINKS)) {
      why.accept("no cache file " + file);
      return Optional.empty();
    }
    Optional<String> unsafe = unsafe(meta, false).or(() -> unsafe(file, false));
    if (unsafe.isPresent()) {
      why.accept("not using cache file: " + unsafe.get());
      return Optional.empty();
    }
    Header header;
    byte[] secret;
    try {
      byte[] head = BoundedFiles.read(meta, MAX_HEADER_BYTES, "cache header", NOFOLLOW);
      Optional<byte[]> k = readKey();
      if (k.isEmpty()) {
        why.accept("no usable cache key " + dir.resolve(KEY_FILE) + "; ignoring " + file);
        return Optional.empty();
      }
      secret = k.get();
      try {
        header = Header.of(Json.parse(head));
      } catch (IOException | RuntimeException e) {
        why.accept("cache file " + meta + " is damaged; ignoring it");
        return Optional.empty();
      }
    } catch (IOException e) {
      why.accept("cannot read cache file " + meta + ": " + e.getMessage());
      return Optional.empty();
    }
    if (header.format() != FORMAT || !key.equals(header.key())) {
      why.accept("cache file " + file + " is for other settings or credentials; ignoring it");
      return Optional.empty();
    }
    long age = clock.millis() - header.writtenAtMillis();
    if (age < 0 || age > ttlSeconds * 1000) {
      why.accept(
          "cache file " + file + " is " + (age / 1000) + " s old (ttl " + ttlSeconds + " s)");
      return Optional.empty();
    }
    String forged = "cache file " + file + " was changed or not written by gpugen; ignoring it";
    try {
      String before = identity(file);
      if (header.mac() == null
          || !before.equals(header.identity())
          || !MessageDigest.isEqual(
              HexFormat.of().formatHex(mac(secret, header)).getBytes(StandardCharsets.US_ASCII),
              header.mac().getBytes(StandardCharsets.US_ASCII))) {
        why.accept(forged);
        return Optional.empty();
      }
      byte[] body = BoundedFiles.read(file, MAX_FILE_BYTES, "cache file", NOFOLLOW);
      // The same inode, unchanged while it was read: the bytes are the ones the MAC vouches for.
      if (body.length != header.length() || !before.equals(identity(file))) {
        why.accept(forged);
        return Optional.empty();
      }
      return Optional.of(new Entry(body, header.warnings()));
    } catch (IOException e) {
      why.accept("cannot read cache file " + file + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  /** Replaces the cache files atomically with {@code body}. */
  public void write(byte[] body, List<String> warnings) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Optional<String> unsafe = unsafeFolder();
    if (unsafe.isPresent()) {
      throw new IOException(unsafe.get());
    }
    byte[] secret = readKey().orElse(null);
    if (secret == null) {
      secret = createKey();
    }
    replace(file, body);
    Header unsigned =
        new Header(FORMAT, key, clock.millis(), body.length, identity(file), "", warnings);
    Header header =
        new Header(
            FORMAT,
            key,
            unsigned.writtenAtMillis(),
            body.length,
            unsigned.identity(),
            HexFormat.of().formatHex(mac(secret, unsigned)),
            warnings);
    replace(meta, header.toJson());
  }

  /** Writes {@code bytes} to a temporary file beside {@code target} and renames it over it. */
  private void replace(Path target, byte[] bytes) throws IOException {
    // createTempFile makes the file readable by its owner only.
    Path tmp = Files.createTempFile(dir, ".inventory-", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE);
          OutputStream out = Channels.newOutputStream(channel)) {
        out.write(bytes);
        out.flush();
        channel.force(true);
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Which file {@code path} is, and in which state: device, inode, size, and the modification and
   * status-change times to the nanosecond.
   */
  static String identity(Path path) throws IOException {
    Map<String, Object> a =
        Files.readAttributes(path, "unix:dev,ino,size,lastModifiedTime,ctime", NOFOLLOW);
    return a.get("dev")
        + ":"
        + a.get("ino")
        + ":"
        + a.get("size")
        + ":"
        + ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS)
        + ":"
        + ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
  }

  /** The folder's key if it is there, the user's own and readable by nobody else. */
  private Optional<byte[]> readKey() throws IOException {
    Path keyFile = dir.resolve(KEY_FILE);
    if (!Files.exists(keyFile, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    Optional<String> unsafe = unsafe(keyFile, false);
    Set<PosixFilePermission> mode =
        Files.getPosixFilePermissions(keyFile, LinkOption.NOFOLLOW_LINKS);
    if (unsafe.isPresent()
        || mode.contains(PosixFilePermission.GROUP_READ)
        || mode.contains(PosixFilePermission.OTHERS_READ)) {
      return Optional.empty();
    }
    byte[] secret = BoundedFiles.read(keyFile, 64, "cache key", LinkOption.NOFOLLOW_LINKS);
    return secret.length == 32 ? Optional.of(secret) : Optional.empty();
  }

  private byte[] createKey() throws IOException {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    Path keyFile = dir.resolve(KEY_FILE);
    try {
      Files.createFile(
          keyFile,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      // Another run created it meanwhile (or it is unusable): use that one, or give up.
      return readKey().orElseThrow(() -> new IOException("unusable cache key " + keyFile));
    }
    Files.write(keyFile, secret, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    return secret;
  }

  private static byte[] mac(byte[] secret, Header header) {
    return Sha256.hmac(secret, header.signed());
  }
}
