package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * No setting that silently does nothing: every variable a render puts in group_vars is read by a
 * task, template, handler or playbook of that render, directly or through a role default that is
 * itself read.
 */
class RenderedVariablesTest {
  static final List<String> CASES = RenderedCase.CASES;

  private static final Pattern TOP_KEY = Pattern.compile("^([a-z][a-z0-9_]*):", Pattern.MULTILINE);

  @TempDir Path tmp;

  @ParameterizedTest
  @FieldSource("CASES")
  void everyRenderedVariableIsRead(String name) throws Exception {
    Path dir = RenderedCase.render(name, tmp.resolve(name)).ansible();
    Set<String> rendered = new TreeSet<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(f).toString();
        if (rel.startsWith("group_vars/")) {
          rendered.addAll(keys(Files.readString(f)));
        }
      }
    }
    assertTrue(!rendered.isEmpty(), "the render has group_vars");

    // Readers: tasks, templates, handlers, playbooks and inventory plugins' settings.
    StringBuilder readers = new StringBuilder();
    Map<String, String> defaults = new LinkedHashMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(f).toString();
        String text = Files.readString(f);
        if (rel.matches("roles/[^/]+/defaults/.*")) {
          defaults.putAll(definitions(text));
        } else if (rel.matches("roles/[^/]+/(tasks|templates|handlers)/.*")
            || rel.matches("[^/]+\\.yml") && !rel.startsWith("pull-inventory-")) {
          readers.append(text).append('\n');
        }
      }
    }
    // A role default is read when a reader names it; its definition then reads what it names.
    Set<String> read = new TreeSet<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Map.Entry<String, String> d : defaults.entrySet()) {
        if (!read.contains(d.getKey()) && names(readers, d.getKey())) {
          read.add(d.getKey());
          readers.append(d.getValue()).append('\n');
          grew = true;
        }
      }
    }
    List<String> unread = new ArrayList<>();
    for (String v : rendered) {
      if (!names(readers, v)) {
        unread.add(v);
      }
    }
    assertEquals(
        List.of(), unread, name + ": rendered variables no task, template or handler reads");
  }

  private static boolean names(CharSequence text, String var) {
    return Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(var) + "(?![A-Za-z0-9_])")
        .matcher(text)
        .find();
  }

  /** Top-level keys of a group_vars file. */
  private static Set<String> keys(String yaml) {
    Set<String> out = new TreeSet<>();
    Matcher m = TOP_KEY.matcher(yaml);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** A defaults file's top-level variables with the text of their definitions. */
  private static Map<String, String> definitions(String yaml) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    String current = null;
    StringBuilder value = new StringBuilder();
    for (String line : yaml.lines().toList()) {
      Matcher m = TOP_KEY.matcher(line);
      if (m.find() && m.start() == 0) {
        if (current != null) {
          out.put(current, value.toString());
        }
        current = m.group(1);
        value = new StringBuilder(line.substring(m.end()));
      } else if (current != null && !line.startsWith("#")) {
        value.append('\n').append(line);
      }
    }
    if (current != null) {
      out.put(current, value.toString());
    }
    return out;
  }
}
