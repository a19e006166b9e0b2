package dev.gpugen.render;

import dev.gpugen.failure.InternalFailure;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The built-in templates and static files ({@code templates/}) as the build leaves them in the jar:
 * one resource, {@code templates.pack}, read once per process. Listing the jar's 7,000 entries to
 * find them and opening each file as its own class-path resource took a seventh of a render's time.
 * {@code templates/} stays what people edit: the build ({@code process-classes}, see pom.xml) runs
 * {@link #main} to write the pack, and {@code TemplatePackTest} checks that the pack on the class
 * path holds exactly the folder's files.
 *
 * <p>Format: the header {@value #HEADER}, the count, then per file (sorted by name) its name
 * (modified UTF-8), its length and its bytes.
 */
public final class TemplatePack {
  static final String RESOURCE = "templates.pack";
  static final String HEADER = "gpugen template pack 1";

  private TemplatePack() {}

  /** Build step: {@code TemplatePack TEMPLATES_DIR OUT} writes the folder's files to OUT. */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: TemplatePack templates-dir templates.pack");
    }
    Path out = Path.of(args[1]);
    Files.createDirectories(out.getParent());
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out))) {
      write(files(Path.of(args[0])), o);
    }
  }

  static void write(Map<String, byte[]> files, OutputStream out) throws IOException {
    DataOutputStream data = new DataOutputStream(out);
    data.writeUTF(HEADER);
    data.writeInt(files.size());
    for (Map.Entry<String, byte[]> f : new TreeMap<>(files).entrySet()) {
      data.writeUTF(f.getKey());
      data.writeInt(f.getValue().length);
      data.write(f.getValue());
    }
    data.flush();
  }

  /** The regular files under {@code dir}, by path relative to it ('/'-separated). */
  static Map<String, byte[]> files(Path dir) throws IOException {
    List<Path> paths;
    try (Stream<Path> s = Files.walk(dir)) {
      paths = s.filter(Files::isRegularFile).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    Map<String, byte[]> files = new TreeMap<>();
    for (Path p : paths) {
      files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
    }
    return files;
  }

  /** The pack on the class path: name to text, sorted by name. */
  static Map<String, String> load() {
    try (InputStream raw = TemplatePack.class.getResourceAsStream(RESOURCE)) {
      if (raw == null) {
        throw new InternalFailure(
            "gpugen's built-in templates (" + RESOURCE + ") are missing from its build", null);
      }
      return read(raw);
    } catch (IOException e) {
      throw new InternalFailure(RESOURCE + ": " + e.getMessage(), e);
    }
  }

  static Map<String, String> read(InputStream raw) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
    if (!HEADER.equals(in.readUTF())) {
      throw new IOException("not a " + HEADER);
    }
    int count = in.readInt();
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      String name = in.readUTF();
      int length = in.readInt();
      byte[] bytes = in.readNBytes(length);
      if (bytes.length != length) {
        throw new IOException(name + ": cut short");
      }
      files.put(name, new String(bytes, StandardCharsets.UTF_8));
    }
    if (in.read() != -1) {
      throw new IOException("bytes after the last file");
    }
    return files;
  }
}
