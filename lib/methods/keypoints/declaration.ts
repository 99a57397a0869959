/**
 * Key point recall (Long2RAG): key points extracted from the oracle passages,
 * merged, and checked for support in each answer.
 *
 * @module
 */
import { keyPointAnalyses } from "./analyses.ts";
import {
  lexicalEntailer,
  lexicalMerger,
  llmEntailer,
  llmExtractor,
  llmMerger,
  offlineExtractor,
} from "@lib/keypoints/mod.ts";
import { type KeyPointBackends, type KeyPointSection, keypointStages } from "./stages.ts";
import type { MethodDeclaration } from "../method_declaration.ts";

/** The key point method: section `keypoints`, headline KPR. */
export const KEYPOINTS: MethodDeclaration<KeyPointSection, KeyPointBackends> = {
  key: "keypoints",
  label: "Key points",
  section: keypointStages,
  headlines: [{
    method: "keypoints",
    measure: "KPR",
    label: "KPR",
    range: [0, 1],
    higherIsBetter: true,
  }],
  roles: ["judge"],
  backends: ({ section, judge }) => {
    const precision = section.precision ?? true;
    if (!judge) {
      const entailer = lexicalEntailer({ threshold: section.entailThreshold });
      return {
        extractor: offlineExtractor({ perRound: section.perRound }),
        merger: lexicalMerger({ threshold: section.mergeThreshold }),
        entailer,
        supporter: precision ? entailer : undefined,
      };
    }
    const o = { templatesDir: judge.templatesDir, reasks: section.reasks ?? 2 };
    return {
      extractor: llmExtractor(judge.client, o),
      merger: llmMerger(judge.client, o),
      entailer: llmEntailer(judge.client, o),
      supporter: precision ? llmEntailer(judge.client, { ...o, task: "support" }) : undefined,
    };
  },
  analyses: (ws, ctx) =>
    keyPointAnalyses(ws, { buckets: (ctx.section as KeyPointSection).buckets }),
  tables: ["keypoint_scores"],
  commands: ["keypoints"],
};
