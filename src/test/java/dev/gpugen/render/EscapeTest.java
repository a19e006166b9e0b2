package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The escapers against hostile strings. HCL is also checked with HashiCorp's own parser by the
 * Terraform tests; YAML is parsed back here with a YAML 1.2 parser and, for PyYAML's YAML 1.1 rules
 * (what Ansible reads), with python3's yaml module.
 */
class EscapeTest {
  static final List<String> HOSTILE =
      List.of(
          "plain",
          "",
          "x\" } resource \"aws_iam_user\" \"pwn\" { name = \"y",
          "${file(\"~/.aws/credentials\")}",
          "%{ for x in [1] }x%{ endfor }",
          "$${already} %%{literal}",
          "C:\\new\\dir",
          "/dev/shm",
          "</script>",
          "tab\there",
          "line\nbreak\r\nwindows",
          "bell\u0007 del\u007f",
          "sep\u2028para\u2029",
          "{{ lookup('pipe','id') }}",
          "{% endraw %}{{ 7*7 }}{# ",
          "on",
          "yes",
          "no",
          "null",
          "~",
          "0755",
          "1_000",
          "12:30",
          "2024-01-01",
          "1e3",
          "émoji 🚀 ünïcödé",
          "'single' \"double\" `back`",
          "#not a comment",
          "- not a list",
          "key: value");

  @Test
  void hclEscapesQuotesBackslashesControlsAndTemplateSequences() {
    assertEquals("\"a\\\"b\"", Escape.hcl("a\"b"));
    assertEquals("\"C:\\\\new\\\\dir\"", Escape.hcl("C:\\new\\dir"));
    assertEquals("\"$${file(\\\"x\\\")}\"", Escape.hcl("${file(\"x\")}"));
    assertEquals("\"%%{ for x in y }\"", Escape.hcl("%{ for x in y }"));
    assertEquals("\"/dev/shm\"", Escape.hcl("/dev/shm"), "never \\/ (HCL rejects it)");
    assertEquals("\"a\\nb\\tc\\u0007\"", Escape.hcl("a\nb\tc\u0007"));
    assertEquals("\"cost $5 and 100%\"", Escape.hcl("cost $5 and 100%"), "lone $ and % stay");
    for (String s : HOSTILE) {
      String out = Escape.hcl(s);
      String inner = out.substring(1, out.length() - 1);
      String live = inner.replace("$${", "").replace("%%{", "");
      assertFalse(live.contains("${") || live.contains("%{"), "no live template sequence: " + out);
      assertFalse(inner.contains("\n") || inner.contains("\r"), out);
    }
  }

  @Test
  void yamlRoundTripsThroughAYaml12Parser() {
    Load load = new Load(LoadSettings.builder().build());
    for (String s : HOSTILE) {
      Object doc = load.loadFromString("v: " + Escape.yaml(s) + "\n");
      assertEquals(s, ((java.util.Map<?, ?>) doc).get("v"), s);
    }
  }

  @RealToolsTest
  @Test
  void ansibleValuesAreUnsafeAndRoundTripThroughPyYaml() throws Exception {
    StringBuilder doc = new StringBuilder();
    for (int i = 0; i < HOSTILE.size(); i++) {
      String v = Escape.ansible(HOSTILE.get(i));
      assertTrue(v.startsWith("!unsafe \""), v);
      doc.append("v").append(i).append(": ").append(v).append('\n');
    }
    // PyYAML is what Ansible reads vars files with (YAML 1.1: yes/on/0755/12:30 are not strings
    // there unless quoted). Register !unsafe as a plain string constructor, as Ansible does.
    String script =
        "import sys, json, yaml\n"
            + "yaml.SafeLoader.add_constructor('!unsafe', lambda l, n: l.construct_scalar(n))\n"
            + "print(json.dumps(yaml.safe_load(sys.stdin.read())))\n";
    Process p =
        RealTools.start(new ProcessBuilder(python(), "-c", script).redirectErrorStream(true));
    p.getOutputStream().write(doc.toString().getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    var parsed = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out);
    for (int i = 0; i < HOSTILE.size(); i++) {
      assertEquals(
          HOSTILE.get(i), parsed.get("v" + i).asText(), "PyYAML reads back " + HOSTILE.get(i));
      assertTrue(
          parsed.get("v" + i).isTextual(), "a string, not a bool/int/date: " + HOSTILE.get(i));
    }
  }

  @Test
  void shellWordsAreSingleQuoted() {
    assertEquals("'it'\\''s $(rm -rf /)'", Escape.sh("it's $(rm -rf /)"));
    assertThrows(IllegalArgumentException.class, () -> Escape.sh("a\nb"));
  }

  @Test
  void commentsCannotEndTheLine() {
    assertEquals("a\\nb\\u2028c\\x85d", Escape.comment("a\nb\u2028c\u0085d"));
  }

  /**
   * A bidi override in the spec's file name would reorder the generated header of every file as a
   * reader sees it (CVE-2021-42574): comments are plain printable text.
   */
  @Test
  void commentsShowBidiControlsAndEscapesEscaped() {
    assertEquals(
        "spec\\u202egnp.yaml \\x1b[2J \\x9b",
        Escape.comment("spec\u202egnp.yaml \u001b[2J \u009b"));
    assertEquals(
        "# Code generated by gpugen from ../x\\u2066.yaml; DO NOT EDIT.",
        Views.header("../x\u2066.yaml", false));
  }

  @Test
  void jinjaCommentsCannotOpenATemplateConstruct() {
    assertEquals(
        "(( lookup('pipe','id') ))(% raw %)(# x #)\\n",
        Escape.jinjaComment("{{ lookup('pipe','id') }}{% raw %}{# x #}\n"));
  }

  /** Ansible's python (Debian's python3 with python3-yaml, installed with the ansible package). */
  static String python() throws IOException {
    for (String p : new String[] {"/usr/bin/python3", "python3"}) {
      try {
        Process probe =
            RealTools.start(new ProcessBuilder(p, "-c", "import yaml").redirectErrorStream(true));
        if (probe.waitFor() == 0) {
          return p;
        }
      } catch (IOException | InterruptedException e) {
        // try the next one
      }
    }
    throw new IOException("no python3 with the yaml module: run scripts/install-test-deps");
  }
}
