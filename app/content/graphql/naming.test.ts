import { describe, expect, it } from "vitest";
import { camelCase, fieldNames, findField, languageField, pascalCase, queryField, queryWithTotalField, referencingField, typeNames } from "./naming";

describe("Squidex GraphQL names", () => {
  it("turn schema names into PascalCase types and their query fields", () => {
    expect(pascalCase("gm-content-practitioners")).toBe("GmContentPractitioners");
    expect(pascalCase("core-pages")).toBe("CorePages");
    expect(pascalCase("blog_post.v2")).toBe("BlogPostV2");
    const type = pascalCase("gm-content-practitioners");
    expect(queryField(type)).toBe("queryGmContentPractitionersContents");
    expect(queryWithTotalField(type)).toBe("queryGmContentPractitionersContentsWithTotal");
    expect(findField(type)).toBe("findGmContentPractitionersContent");
    expect(referencingField(pascalCase("gm-appointments"))).toBe("referencingGmAppointmentsContents");
  });

  it("number reserved and colliding type names", () => {
    const names = typeNames(["content", "asset", "blog-post", "blog_post", "query"]);
    expect([...names.values()]).toEqual(["Content2", "Asset2", "BlogPost", "BlogPost2", "Query2"]);
  });

  it("turn field names into camelCase, valid GraphQL names, numbered on collision", () => {
    expect(camelCase("my-title")).toBe("myTitle");
    expect(camelCase("durationMinutes")).toBe("durationMinutes");
    expect(camelCase("Name")).toBe("name");
    expect(camelCase("2nd-line")).toBe("_2ndLine");
    expect([...fieldNames(["my-title", "myTitle", "adress2"]).values()]).toEqual(["myTitle", "myTitle2", "adress2"]);
  });

  it("write language codes as field names", () => {
    expect(languageField("de")).toBe("de");
    expect(languageField("de-DE")).toBe("de_DE");
  });
});
