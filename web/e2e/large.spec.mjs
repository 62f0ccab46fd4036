import { test, expect, actionItems, paste } from "./fixtures.mjs";

test("a large scenario stays responsive: capped lists, simulation on demand", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const desired = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`pod-${i}`, { replicas: i % 3 }]));
  await paste(page, "Observed state", "{}");
  await paste(page, "Desired state", JSON.stringify(desired));
  await expect(page.locator("#plan-summary")).toHaveText("3000 to create, 0 to update, 0 to finalize, 0 to delete");
  // 200 items and a note, not 3000 items.
  await expect(actionItems(page)).toHaveCount(201);
  await expect(page.locator(".more-actions")).toHaveText("…and 2800 more actions. Download results to see them all.");
  await expect(page.locator(".deferred-note")).toContainText("Press Step, Run or Play to simulate it.");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("list", { name: "Passes" }).locator(":scope > li")).toHaveCount(1);
  // A pass lists its first 100 actions and counts the rest, until asked for all.
  await expect(page.locator(".pass .pass-action")).toHaveCount(100);
  await expect(page.locator(".more-pass-actions")).toContainText("…and 2900 more: 2900 ok.");
  await page.getByRole("button", { name: "Show all 3000 actions" }).click();
  await expect(page.locator(".pass .pass-action")).toHaveCount(3000);
  await expect(page.locator(".more-pass-actions")).toHaveCount(0);
  await expect(page.locator(".status-grid .more-rows")).toContainText("more resources, all in sync, not listed");
});
