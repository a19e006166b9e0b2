package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Play 05's report of a host ({@code reports/HOST.json} of an Ansible tree), as tests read it. */
final class ValidationReports {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ValidationReports() {}

  /** The report play 05 wrote for {@code host} into the Ansible tree {@code dir}. */
  static JsonNode report(Path dir, String host) throws IOException {
    return JSON.readTree(dir.resolve("reports/" + host + ".json").toFile());
  }

  /** The names of a report's checks whose status is {@code fail}, in the report's order. */
  static List<String> failed(JsonNode checks) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> c : checks.properties()) {
      if (c.getValue().path("status").asText().equals("fail")) {
        out.add(c.getKey());
      }
    }
    return out;
  }
}
