package dev.gpugen.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code .gpugen-manifest.json}: which files gpugen wrote into a folder and their sha256. It is how
 * a re-render knows what it may replace or delete, and what a user added or edited by hand.
 */
public record Manifest(SortedMap<String, String> files) {
  public static final String FILE_NAME = ".gpugen-manifest.json";
  private static final ObjectMapper JSON = new ObjectMapper();

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
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new IOException(file + " is unreadable; delete it and render with --force", e);
    }
    SortedMap<String, String> m = new TreeMap<>();
    JsonNode f = root.path("files");
    if (!f.isObject()) {
      throw new IOException(file + " has no files object; delete it and render with --force");
    }
    for (Map.Entry<String, JsonNode> e : f.properties()) {
      m.put(e.getKey(), e.getValue().asText());
    }
    return new Manifest(m);
  }

  public byte[] toJson() {
    StringBuilder b = new StringBuilder("{\n  \"files\": {");
    // Hand-formatted so the manifest itself is byte-stable and diff-friendly.
    String sep = "\n";
    for (Map.Entry<String, String> e : files.entrySet()) {
      b.append(sep)
          .append("    ")
          .append(JSON.valueToTree(e.getKey()).toString())
          .append(": \"")
          .append(e.getValue())
          .append('"');
      sep = ",\n";
    }
    b.append(files.isEmpty() ? "},\n" : "\n  },\n").append("  \"generator\": \"gpugen\"\n}\n");
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
