package dev.gpugen.render;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.SafeRead;
import dev.gpugen.spec.yaml.Suggest;
import freemarker.cache.StringTemplateLoader;
import freemarker.cache.TemplateLoader;
import freemarker.core.TemplateClassResolver;
import freemarker.ext.beans.ZeroArgumentNonVoidMethodPolicy;
import freemarker.template.Configuration;
import freemarker.template.DefaultObjectWrapperBuilder;
import freemarker.template.Template;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The source set: the built-in templates and static files of {@code templates/}, shipped in the jar
 * as one {@link TemplatePack}, optionally overridden file by file from a directory ({@code
 * --templates DIR}). A template is named after the file it produces plus {@code .ftl}; a static
 * file (no spec data) is named after the file it produces and is copied, not parsed.
 */
public final class Templates {
  static final freemarker.template.Version VERSION = Configuration.VERSION_2_3_34;
  static final String SUFFIX = ".ftl";

  private final Configuration cfg;
  private final List<String> names;
  private final java.util.Set<String> nameSet;

  /** The templates (not the static files), longest first. */
  private final List<String> parseOrder;

  /** The next template a {@link #parsed()} call takes: several threads can share the work. */
  private final java.util.concurrent.atomic.AtomicInteger nextToParse =
      new java.util.concurrent.atomic.AtomicInteger();

  /** The override folder's files, read once when loaded: name to text. */
  private final java.util.Map<String, String> overrides;

  /** The most an override file may hold; the largest built-in template is under 32 KiB. */
  static final long MAX_OVERRIDE_BYTES = 1L << 20;

  private Templates(
      Configuration cfg,
      List<String> names,
      List<String> parseOrder,
      java.util.Map<String, String> overrides) {
    this.cfg = cfg;
    this.names = List.copyOf(names);
    this.parseOrder = parseOrder;
    this.nameSet = java.util.Set.copyOf(names);
    this.overrides = java.util.Map.copyOf(overrides);
  }

  /**
   * The built-in templates, with {@code overrides} taking precedence where given.
   *
   * @throws InternalFailure for an override that replaces no built-in template (README: exit 4)
   * @throws EnvironmentFailure when the override folder cannot be read
   */
  public static Templates load(Optional<Path> overrides) {
    try {
      return read(overrides);
    } catch (IOException e) {
      throw new EnvironmentFailure(e.getMessage(), e);
    }
  }

  private static Templates read(Optional<Path> overrides) throws IOException {
    java.util.Map<String, String> builtIn = BuiltIn.files();
    java.util.Map<String, String> texts = new java.util.TreeMap<>();
    if (overrides.isPresent()) {
      Path dir = overrides.get();
      texts.putAll(readOverrides(dir));
      for (String name : texts.keySet()) {
        if (!builtIn.containsKey(name)) {
          // A misspelt or misplaced override would otherwise be silently ignored.
          throw new InternalFailure(
              "--templates "
                  + dir
                  + ": "
                  + name
                  + " overrides no built-in template (the nearest is "
                  + nearest(name, builtIn.keySet())
                  + "); an override has the path of the file it replaces plus .ftl");
        }
      }
    }
    // Only templates go to FreeMarker; an override replaces the built-in file of its name.
    StringTemplateLoader loader = new StringTemplateLoader();
    java.util.Map<String, Integer> lengths = new java.util.HashMap<>();
    builtIn.forEach(
        (name, text) -> {
          if (name.endsWith(SUFFIX)) {
            String source = texts.getOrDefault(name, text);
            loader.putTemplate(name, source);
            lengths.put(name, source.length());
          }
        });
    // Longest first: two threads sharing the parse then finish close together, not one waiting
    // for the other's last large template.
    List<String> parseOrder =
        lengths.keySet().stream()
            .sorted(
                java.util.Comparator.comparing((String n) -> -lengths.get(n))
                    .thenComparing(java.util.Comparator.naturalOrder()))
            .toList();
    return new Templates(configure(loader), new ArrayList<>(builtIn.keySet()), parseOrder, texts);
  }

  /**
   * The built-in files, read from the jar's template pack on first use, once per process. A broken
   * pack is kept as its error, so every use reports the same message.
   */
  private static final class BuiltIn {
    private static final java.util.Map<String, String> LOADED;
    private static final InternalFailure FAILURE;

    static {
      java.util.Map<String, String> loaded = null;
      InternalFailure failure = null;
      try {
        loaded = java.util.Collections.unmodifiableMap(TemplatePack.load());
      } catch (InternalFailure e) {
        failure = e;
      }
      LOADED = loaded;
      FAILURE = failure;
    }

    static java.util.Map<String, String> files() {
      if (FAILURE != null) {
        throw new InternalFailure(FAILURE.getMessage(), FAILURE);
      }
      return LOADED;
    }
  }

  /**
   * Every override, read into memory here and never again: only regular files of at most {@link
   * #MAX_OVERRIDE_BYTES}, in real folders under {@code dir}. A symbolic link (it would copy a file
   * from outside into the render), a FIFO or a device (a read would block or never end) and a huge
   * file are refused by name, before anything is rendered.
   */
  private static java.util.Map<String, String> readOverrides(Path dir) throws IOException {
    String where = "--templates " + Printable.text(dir.toString()) + ": ";
    BasicFileAttributes root;
    try {
      root = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new EnvironmentFailure(
          "--templates " + Printable.text(dir.toString()) + " does not exist");
    }
    if (root.isSymbolicLink() || !root.isDirectory()) {
      throw new EnvironmentFailure(
          "--templates "
              + Printable.text(dir.toString())
              + (root.isSymbolicLink()
                  ? " is a symbolic link; give the real folder"
                  : " is not a directory"));
    }
    java.util.Map<String, String> texts = new java.util.TreeMap<>();
    List<Path> entries;
    try (Stream<Path> s = Files.walk(dir)) {
      entries = s.sorted().toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path p : entries) {
      if (p.equals(dir)) {
        continue;
      }
      String name = dir.relativize(p).toString().replace('\\', '/');
      BasicFileAttributes a =
          Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (a.isDirectory()) {
        continue;
      }
      if (a.isSymbolicLink()) {
        throw new EnvironmentFailure(
            where
                + Printable.text(name)
                + " is a symbolic link; an override is a regular file inside the folder (copy"
                + " the file there instead)");
      }
      try {
        byte[] bytes = SafeRead.read(p, MAX_OVERRIDE_BYTES, false);
        texts.put(name, new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
      } catch (EnvironmentFailure e) {
        throw e.prefixed(where + Printable.text(name) + " ");
      }
    }
    return texts;
  }

  /** The built-in name closest to {@code name}: same file name first, then edit distance. */
  private static String nearest(String name, Iterable<String> names) {
    String file = name.substring(name.lastIndexOf('/') + 1);
    String best = null;
    int bestScore = Integer.MAX_VALUE;
    for (String n : names) {
      String nFile = n.substring(n.lastIndexOf('/') + 1);
      int score = Suggest.distance(file, nFile) * 1000 + Suggest.distance(name, n);
      if (score < bestScore) {
        best = n;
        bestScore = score;
      }
    }
    return best;
  }

  private static Configuration configure(TemplateLoader loader) {
    Configuration cfg = new Configuration(VERSION);
    cfg.setTemplateLoader(loader);
    cfg.setDefaultEncoding("UTF-8");
    cfg.setLocale(Locale.ROOT);
    cfg.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
    cfg.setLogTemplateExceptions(false);
    cfg.setWrapUncheckedExceptions(true);
    cfg.setFallbackOnNullLoopVariable(false);
    // [=x] interpolation, so Terraform's and shell's ${...} pass through templates untouched.
    cfg.setInterpolationSyntax(Configuration.SQUARE_BRACKET_INTERPOLATION_SYNTAX);
    cfg.setOutputFormat(GeneratedOutputFormat.INSTANCE);
    cfg.setNewBuiltinClassResolver(TemplateClassResolver.ALLOWS_NOTHING_RESOLVER);
    cfg.setAPIBuiltinEnabled(false);
    cfg.setNumberFormat("computer");
    cfg.setBooleanFormat("c");
    cfg.setLocalizedLookup(false);
    // Templates are read once per process; no cache refresh checks.
    cfg.setTemplateUpdateDelayMilliseconds(Long.MAX_VALUE);
    DefaultObjectWrapperBuilder wrapper = new DefaultObjectWrapperBuilder(VERSION);
    wrapper.setExposeFields(false);
    // View classes expose values as zero-argument methods; let templates read them as view.name.
    wrapper.setDefaultZeroArgumentNonVoidMethodPolicy(
        ZeroArgumentNonVoidMethodPolicy.BOTH_METHOD_AND_PROPERTY_UNLESS_BEAN_PROPERTY_READ_METHOD);
    cfg.setObjectWrapper(wrapper.build());
    return cfg;
  }

  /**
   * Parses the templates now rather than on first use, so that another thread can do it while the
   * main one reads the spec. Threads that call this share the work: each takes the next template
   * none has taken, and returns when none is left (one another thread took may still be parsing). A
   * template that does not parse is left to fail where it is rendered.
   */
  public Templates parsed() {
    for (int i = nextToParse.getAndIncrement();
        i < parseOrder.size();
        i = nextToParse.getAndIncrement()) {
      String name = parseOrder.get(i);
      try {
        cfg.getTemplate(name);
      } catch (IOException e) {
        // Not kept: FreeMarker's cache would answer the render with "an error on an earlier
        // attempt" instead of the syntax error, which rendering the file now meets and reports.
        try {
          cfg.removeTemplateFromCache(name);
        } catch (IOException again) {
          // Nothing cached to remove.
        }
      }
    }
    return this;
  }

  /** Source names (paths relative to the template root), sorted. */
  public List<String> names() {
    return names;
  }

  /**
   * The source of output {@code path} (or of a source named {@code path} without its suffix): its
   * template if there is one, else its static file.
   *
   * @throws IllegalStateException when there is neither: a render plan that names a missing source
   *     is a bug in gpugen
   */
  String source(String path) {
    if (nameSet.contains(path + SUFFIX) && nameSet.contains(path)) {
      throw new IllegalStateException(
          "two sources for " + path + ": " + path + SUFFIX + " and the static " + path);
    }
    if (nameSet.contains(path + SUFFIX)) {
      return path + SUFFIX;
    }
    if (nameSet.contains(path)) {
      return path;
    }
    throw new IllegalStateException("no template or static file for " + path);
  }

  /** A static file's text, from the override folder when it has one. */
  String text(String name) throws IOException {
    String override = overrides.get(name);
    if (override != null) {
      return override;
    }
    String text = BuiltIn.files().get(name);
    if (text == null) {
      throw new IOException("no static file " + name);
    }
    return text;
  }

  Template get(String name) throws IOException {
    return cfg.getTemplate(name);
  }

  static String outputPathOf(String sourceName) {
    return sourceName.endsWith(SUFFIX)
        ? sourceName.substring(0, sourceName.length() - SUFFIX.length())
        : sourceName;
  }
}
