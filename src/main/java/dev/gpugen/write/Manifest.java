package dev.gpugen.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.render.Json;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code .gpugen-manifest.json}: which files gpugen wrote into a folder and their sha256. It is how
 * a re-render knows what it may replace or delete, and what a user added or edited by hand.
 */
public record Manifest(SortedMap<String, String> files) {
  public static final String FILE_NAME = ".gpugen-manifest.json";
  private static final JsonFactory JSON = new JsonFactory();

  public Manifest {
    files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
  }

  public static Manifest of(Map<String, byte[]> contents) {
    SortedMap<String, String> m = new TreeMap<>();
    contents.forEach((path, bytes) -> m.put(path, sha256(bytes)));
    return new Manifest(m);
  }

  /** Reads the manifest of {@code dir}; throws on a manifest that is not ours. */
  public static Manifest read(Path dir) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    SortedMap<String, String> m = new TreeMap<>();
    try (JsonParser p = JSON.createParser(Files.readAllBytes(file))) {
      // {"files": {"path": "sha256", ...}, ...}: read the one object we wrote, skip the rest.
      expect(p.nextToken() == JsonToken.START_OBJECT, file);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (field.equals("files") && t == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String path = p.currentName();
            expect(p.nextToken() == JsonToken.VALUE_STRING, file);
            m.put(path, p.getText());
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new IOException(file + " is unreadable; delete it and render with --force", e);
    }
    return new Manifest(m);
  }

  private static void expect(boolean ok, Path file) throws IOException {
    if (!ok) {
      throw new IOException(file + " is not a gpugen manifest");
    }
  }

  public byte[] toJson() {
    return Json.write(Map.of("generator", "gpugen", "files", files))
        .concat("\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  static String sha256(byte[] bytes) {
    return Sha256.hex(bytes);
  }
}
