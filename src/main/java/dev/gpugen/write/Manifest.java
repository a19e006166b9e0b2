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
import java.util.Objects;
import java.util.Optional;
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
 *
 * <p>{@code source} says which spec the folder belongs to and the values it was rendered from
 * ({@link Source}); a manifest written before gpugen recorded it has none.
 */
public record Manifest(
    SortedMap<String, String> files, SortedMap<String, String> pending, Optional<Source> source) {
  public static final String FILE_NAME = ".gpugen-manifest.json";

  /** Far above any real manifest (a three-pool render lists ~200 files, 20 KB). */
  static final long MAX_BYTES = 16L << 20;

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * Which spec a folder belongs to, and the values of the render it holds.
   *
   * <p>The owner is the spec file's path relative to the folder, as every generated file's header
   * names it ({@code ../../examples/aws-h100/cluster.yaml}), plus the {@code --env} it was rendered
   * with: both stay the same when the repository is cloned elsewhere, and a second spec with the
   * same {@code metadata.name} (a copy with another count) differs in its path. Renaming the spec
   * file changes its path too: {@code --force} hands the folder to the new name.
   *
   * @param spec the spec file, relative to the folder, with {@code /} separators
   * @param environment the {@code --env} of the render, if any
   * @param values the spec values a later render judges a change by ({@code plan/ChangeImpact})
   */
  public record Source(
      String spec, Optional<String> environment, SortedMap<String, String> values) {
    public Source {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(environment, "environment");
      values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    /** Whether the same spec file, in the same environment, rendered both. */
    public boolean sameOwner(Source other) {
      return spec.equals(other.spec) && environment.equals(other.environment);
    }

    /** The spec as a user names it from the working directory: the folder joined with its path. */
    public String shown(Path folder) {
      String path;
      try {
        path = folder.resolve(spec).normalize().toString();
      } catch (java.nio.file.InvalidPathException e) {
        // A tampered manifest's text (a NUL) is shown, never used as a path.
        path = folder + "/" + spec;
      }
      return Printable.text(path + environment.map(e -> " --env " + e).orElse(""));
    }
  }

  public Manifest {
    files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    pending = Collections.unmodifiableSortedMap(new TreeMap<>(pending));
    Objects.requireNonNull(source, "source");
  }

  public Manifest(SortedMap<String, String> files) {
    this(files, new TreeMap<>(), Optional.empty());
  }

  public static Manifest of(Map<String, byte[]> contents) {
    return of(contents, Optional.empty());
  }

  public static Manifest of(Map<String, byte[]> contents, Optional<Source> source) {
    SortedMap<String, String> m = new TreeMap<>();
    contents.forEach((path, bytes) -> m.put(path, sha256(bytes)));
    return new Manifest(m, new TreeMap<>(), source);
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
    return new Manifest(files, next.files, source);
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
    Optional<Source> source = Optional.empty();
    try (JsonParser p = JSON.createParser(bytes)) {
      // {"files": {"path": "sha256", ...}, "pending": {...}, "source": {...}, ...}: read ours,
      // skip the rest.
      expect(p.nextToken() == JsonToken.START_OBJECT, file, p, "an object");
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        SortedMap<String, String> m = sections.get(field);
        if (field.equals("source") && t == JsonToken.START_OBJECT) {
          source = Optional.of(source(p, file));
        } else if (m != null && t == JsonToken.START_OBJECT) {
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
    return new Manifest(sections.get("files"), sections.get("pending"), source);
  }

  /**
   * {@code {"spec": "...", "environment": "...", "values": {"key": "value", ...}}}, the parser on
   * its opening brace. The text is only compared and printed (escaped), never used as a path.
   */
  private static Source source(JsonParser p, Path file) throws IOException {
    String spec = null;
    Optional<String> environment = Optional.empty();
    SortedMap<String, String> values = new TreeMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (field.equals("spec") && t == JsonToken.VALUE_STRING) {
        spec = p.getText();
      } else if (field.equals("environment") && t == JsonToken.VALUE_STRING) {
        environment = Optional.of(p.getText());
      } else if (field.equals("values") && t == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          expect(p.nextToken() == JsonToken.VALUE_STRING, file, p, "a string value");
          values.put(key, p.getText());
        }
      } else {
        p.skipChildren();
      }
    }
    expect(spec != null, file, p, "source.spec, the spec file the folder was rendered from");
    return new Source(spec, environment, values);
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
    source.ifPresent(
        src -> {
          Map<String, Object> o = new TreeMap<>();
          o.put("spec", src.spec());
          src.environment().ifPresent(e -> o.put("environment", e));
          o.put("values", src.values());
          m.put("source", o);
        });
    // ASCII, like everything gpugen prints: the spec path may carry a bidi control or ESC.
    return Json.writeAscii(m).concat("\n").getBytes(StandardCharsets.UTF_8);
  }

  static String sha256(byte[] bytes) {
    return Sha256.hex(bytes);
  }
}
