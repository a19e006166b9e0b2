package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * On HashiCorp's parse of every rendered Terraform tree (AWS, pull mode, GKE): every variable
 * declared is set by terraform.tfvars.json or has a default, and is read by some block other than
 * its own declaration (a variable only its own validation reads does nothing);
 * terraform.tfvars.json sets only declared variables.
 */
@RealToolsTest
class TerraformVariablesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VAR = Pattern.compile("\\bvar\\.([A-Za-z_][A-Za-z0-9_-]*)");

  static Stream<Rendered> all() throws IOException {
    return Stream.concat(TerraformSchemaTest.all(), GkeTerraformTest.all());
  }

  @TestFactory
  Stream<DynamicTest> everyVariableIsSetOrDefaultedAndReadBySomeBlock() throws IOException {
    return all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(), () -> assertEquals(List.of(), problems(r.parsed(""), r.tfvars()))));
  }

  /**
   * The same for each child module (modules/pool), whose variables its one call in the root module
   * sets: a module variable the call does not pass needs a default, and the call passes only
   * declared variables.
   */
  @TestFactory
  Stream<DynamicTest> everyModuleVariableIsPassedOrDefaultedAndRead() throws IOException {
    return all()
        .flatMap(
            r ->
                r.modules().stream()
                    .filter(m -> !m.isEmpty())
                    .map(
                        m ->
                            DynamicTest.dynamicTest(
                                r.label() + " " + m,
                                () -> {
                                  JsonNode call = call(r, m);
                                  ObjectNode args = ((ObjectNode) call).deepCopy();
                                  args.remove(List.of("source", "for_each", "count", "depends_on"));
                                  assertEquals(List.of(), problems(r.parsed(m), args));
                                })));
  }

  /** The one module block of the root module whose source is ./MODULE. */
  private static JsonNode call(Rendered r, String module) {
    List<JsonNode> calls = new ArrayList<>();
    r.parsed("")
        .values()
        .forEach(
            body ->
                body.path("module")
                    .forEach(
                        blocks ->
                            blocks.forEach(
                                b -> {
                                  if (b.path("source").asText().equals("./" + module)) {
                                    calls.add(b);
                                  }
                                })));
    assertEquals(1, calls.size(), "one call of ./" + module);
    return calls.get(0);
  }

  /** The check above can fail: a variable nobody reads and a required one nobody sets. */
  @Test
  void theCheckFindsAnUnreadAndAnUnsetVariable() throws IOException {
    Map<String, JsonNode> parsed =
        Hcl2Json.parse(
            Map.of(
                "variables.tf",
                """
                variable "read" {
                  type = string
                }

                variable "unread" {
                  type    = string
                  default = "x"

                  validation {
                    condition     = length(var.unread) > 0
                    error_message = "Only its own validation reads it."
                  }
                }

                variable "required" {
                  type = string
                }
                """,
                "main.tf",
                """
                locals {
                  a = var.read
                  b = var.required
                }
                """));
    JsonNode tfvars = JSON.readTree("{\"read\": \"v\", \"required\": null, \"stray\": 1}");
    assertEquals(
        List.of(
            "required: no default, and terraform.tfvars.json sets none",
            "unread: declared in variables.tf, read by no block",
            "stray: set by terraform.tfvars.json, not declared"),
        problems(parsed, tfvars));
  }

  /**
   * @param tfvars the values the module gets: terraform.tfvars.json for the root module, the
   *     arguments of its call for a child module
   */
  static List<String> problems(Map<String, JsonNode> parsed, JsonNode tfvars) {
    Map<String, JsonNode> declared = new TreeMap<>();
    Map<String, String> declaredIn = new TreeMap<>();
    TreeSet<String> read = new TreeSet<>();
    parsed.forEach(
        (file, body) -> {
          for (Map.Entry<String, JsonNode> v : body.path("variable").properties()) {
            declared.put(v.getKey(), v.getValue().get(0));
            declaredIn.put(v.getKey(), file);
          }
          ObjectNode rest = ((ObjectNode) body).deepCopy();
          rest.remove("variable");
          String text;
          try {
            text = JSON.writeValueAsString(rest);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          Matcher m = VAR.matcher(text);
          while (m.find()) {
            read.add(m.group(1));
          }
        });
    List<String> problems = new ArrayList<>();
    declared.forEach(
        (name, decl) -> {
          JsonNode value = tfvars.get(name);
          if (!decl.has("default") && (value == null || value.isNull())) {
            problems.add(name + ": no default, and terraform.tfvars.json sets none");
          }
        });
    declared.keySet().stream()
        .filter(n -> !read.contains(n))
        .forEach(
            n -> problems.add(n + ": declared in " + declaredIn.get(n) + ", read by no block"));
    tfvars
        .fieldNames()
        .forEachRemaining(
            n -> {
              if (!declared.containsKey(n)) {
                problems.add(n + ": set by terraform.tfvars.json, not declared");
              }
            });
    return problems;
  }
}
