package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every rendered .tf file is laid out as {@code terraform fmt} would lay it out. */
class TerraformFormatTest {
  @TestFactory
  Stream<DynamicTest> renderedFilesAreFormatted() throws IOException {
    return TerraformSchemaTest.all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(),
                    () -> {
                      List<String> problems = new ArrayList<>();
                      r.tf()
                          .forEach(
                              (name, text) ->
                                  TerraformFormat.check(text)
                                      .forEach(p -> problems.add(name + ": " + p)));
                      assertEquals(List.of(), problems);
                    }));
  }

  @Test
  void acceptsWhatTerraformFmtWrites() {
    // Written by terraform fmt 1.11 from a deliberately messy input.
    String fmt =
        """
        locals {
          a     = 1
          bbbbb = "x = ${var.y}"
          m = {
            "k"   = { x = 1, y = 2 }
            "kkk" = 3
          }

          long = 2
          tags = merge(local.tags, {
            Name = "n"
          })
          cond = var.a == 1 ? "b" : (
            var.c
          )
          list = [
            for x in var.l : x
          ]
          s = "$${literal} %%{literal} \\" ${"nested"} = {"
        }
        """;
    assertEquals(List.of(), TerraformFormat.check(fmt));
  }

  @Test
  void reportsWhatTerraformFmtWouldChange() {
    String messy =
        """
        locals {
          a = 1
          bbbbb  = 2
           c = 3
          d =  4\t
        \s\s
        }

        """;
    assertEquals(
        List.of(
            "the file must end with exactly one newline",
            "line 4: indent 3, terraform fmt gives 2",
            "line 5: tab",
            "line 5: trailing whitespace",
            "line 6: trailing whitespace",
            "line 2: '=' in column 5, aligned it is in column 9",
            "line 3: '=' in column 10, aligned it is in column 9",
            "line 4: '=' in column 6, aligned it is in column 10",
            "line 5: '=' in column 5, aligned it is in column 9",
            "line 5: one space after '='"),
        TerraformFormat.check(messy));
  }
}
