package dev.gpugen.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.json.Json;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.SafeRead;
import dev.gpugen.spec.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code .gpugen-manifest.json}: which files gpugen wrote into a folder and their sha256. It is how
 * a re-render knows what it may replace or delete, and what a user added or edited by hand.
 *
 * <p>{@code pending} lists files a write was about to put in place: while a write runs, the
 * manifest on disk names both the old and the new content of every file it touches, so a run that
 * was killed half-way leaves a folder the next render (of either spec) recognises as its own.
 */
public record Manifest(SortedMap<String, String> files, SortedMap<String, String> pending) {
  public static final String FILE_NAME = ".gpugen-manifest.json";

  /** Far above any real manifest (a three-pool render lists ~200 files, 20 KB). */
  static final long MAX_BYTES = 16L << 20;

  private static final JsonFactory JSON = new JsonFactory();

  public Manifest {
    files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    pending = Collections.unmodifiableSortedMap(new TreeMap<>(pending));
  }

  public Manifest(SortedMap<String, String> files) {
    this(files, new TreeMap<>());
  }

  public static Manifest of(Map<String, byte[]> contents) {
    SortedMap<String, String> m = new TreeMap<>();
    contents.forEach((path, bytes) -> m.put(path, sha256(bytes)));
    return new Manifest(m);
  }

  /** Every path the manifest claims, finished or pending. */
  Set<String> paths() {
    Set<String> all = new java.util.TreeSet<>(files.keySet());
    all.addAll(pending.keySet());
    return all;
  }

  /** Whether {@code sha} is content gpugen wrote (or was writing) at {@code path}. */
  boolean owns(String path, String sha) {
    return sha.equals(files.get(path)) || sha.equals(pending.get(path));
  }

  /** This manifest plus {@code next} as pending: what is on disk while a write runs. */
  Manifest journal(Manifest next) {
    return new Manifest(files, next.files);
  }

  /**
   * Reads the manifest of {@code dir}. A manifest gpugen did not write, one too large, or one with
   * an entry that is not a plain relative path inside the folder is refused with its position: the
   * manifest decides what gets read, replaced and deleted, so a tampered one must never reach
   * outside the folder.
   */
  public static Manifest read(Path dir) throws Failure {
    Path file = dir.resolve(FILE_NAME);
    byte[] bytes;
    try {
      bytes = SafeRead.read(file, MAX_BYTES, false);
    } catch (IOException | EnvironmentFailure e) {
      throw new EnvironmentFailure(file + ": " + e.getMessage(), e);
    }
    Map<String, SortedMap<String, String>> sections = new LinkedHashMap<>();
    sections.put("files", new TreeMap<>());
    sections.put("pending", new TreeMap<>());
    try (JsonParser p = JSON.createParser(bytes)) {
      // {"files": {"path": "sha256", ...}, "pending": {...}, ...}: read ours, skip the rest.
      expect(p.nextToken() == JsonToken.START_OBJECT, file, p, "an object");
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        SortedMap<String, String> m = sections.get(field);
        if (m != null && t == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String path = p.currentName();
            JsonLocation at = p.currentTokenLocation();
            String problem = Contained.problem(path);
            if (problem != null) {
              throw refused(file, at, "entry \"" + Printable.text(path) + "\" " + problem);
            }
            expect(p.nextToken() == JsonToken.VALUE_STRING, file, p, "a sha256 string");
            m.put(path, p.getText());
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw refused(
          file,
          at == null ? JsonLocation.NA : at,
          "not JSON gpugen can read (" + Printable.text(e.getOriginalMessage()) + ")");
    } catch (IOException e) {
      throw new InvalidInput(
          file
              + " is not a manifest gpugen can read ("
              + Printable.text(String.valueOf(e.getMessage()).lines().findFirst().orElse(""))
              + "); delete it and render with --force",
          e);
    }
    return new Manifest(sections.get("files"), sections.get("pending"));
  }

  private static void expect(boolean ok, Path file, JsonParser p, String what) throws Failure {
    if (!ok) {
      throw refused(file, p.currentTokenLocation(), "expected " + what);
    }
  }

  private static InvalidInput refused(Path file, JsonLocation at, String what) {
    return new InvalidInput(
        file
            + ":"
            + at.getLineNr()
            + ":"
            + at.getColumnNr()
            + ": "
            + what
            + "; gpugen reads and deletes only relative paths inside its folder: check the"
            + " manifest was not tampered with, delete it and render with --force");
  }

  public byte[] toJson() {
    Map<String, Object> m = new TreeMap<>();
    m.put("generator", "gpugen");
    m.put("files", files);
    if (!pending.isEmpty()) {
      m.put("pending", pending);
    }
    return Json.write(m).concat("\n").getBytes(StandardCharsets.UTF_8);
  }

  static String sha256(byte[] bytes) {
    return Sha256.hex(bytes);
  }
}
