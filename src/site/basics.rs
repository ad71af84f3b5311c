//! Files every published site has besides its pages: `sitemap.xml`, for
//! search engines, when the site file gives the site's address, and each
//! page's markdown beside it.

use super::RenderedPage;
use crate::config::Config;
use crate::content::Page;
use crate::html;

/// The sitemap of `pages`, sorted by address, with each page's "last
/// updated" date when it has one; `None` without a base address (a sitemap
/// needs absolute addresses).
pub(super) fn sitemap(config: &Config, pages: &[RenderedPage]) -> Option<String> {
    config.base_url.as_ref()?;
    let mut entries: Vec<(String, Option<&str>)> = pages
        .iter()
        .filter_map(|page| Some((config.page_url(&page.output)?, page.updated.as_deref())))
        .collect();
    entries.sort();
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (url, updated) in entries {
        xml.push_str("  <url>\n    <loc>");
        xml.push_str(&html::escape(&url));
        xml.push_str("</loc>\n");
        if let Some(date) = updated {
            xml.push_str(&format!("    <lastmod>{}</lastmod>\n", html::escape(date)));
        }
        xml.push_str("  </url>\n");
    }
    xml.push_str("</urlset>\n");
    Some(xml)
}

/// A page's markdown as published beside it. A body that opens with raw
/// markup gets its title as a heading first, so no browser sniffs the
/// file as a web page (the rule content files are held to). A page the
/// rule book made publishes the shortcode an author would write for it.
pub(super) fn markdown_export(page: &Page) -> Vec<u8> {
    if let Some(made) = &page.made {
        return made.markdown().into_bytes();
    }
    if crate::content::starts_with_markup(page.body.as_bytes()) {
        format!("# {}\n\n{}", page.title, page.body).into_bytes()
    } else {
        page.body.clone().into_bytes()
    }
}
